"""`rnntui serve`: memory and first-frame time per browser session, and how many idle sessions fit.

    python -m bench.serve_bench [--sessions 4]      (from the repository root; needs rnntui[serve])

Starts `rnntui serve` on a free port, opens --sessions websocket sessions one after another (what a
browser tab does), and for each times the first frame (connect → the app's header has arrived) and
reads its app process's memory: RSS, and PSS/USS where the OS reports them (PSS shares the Python
interpreter's and libraries' pages fairly between sessions: the number that adds up). Then it waits
10 s and reads each idle app's CPU use. The estimate of idle sessions that fit divides the memory
available now by the per-session PSS (RSS where PSS is missing), keeping 1 GiB back; it never opens
that many.
"""
from __future__ import annotations

import argparse
import asyncio
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def first_frame(url: str):
    import aiohttp

    client = aiohttp.ClientSession()
    t0 = time.perf_counter()
    ws = await client.ws_connect(url + "/ws?width=100&height=30")
    data = b""
    while b"One token at a time" not in data:
        message = await ws.receive(timeout=60)
        if message.type == aiohttp.WSMsgType.BINARY:
            data += message.data
    return time.perf_counter() - t0, client, ws


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=4)
    args = ap.parse_args()
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "rnntui", "serve", "--port", str(port),
                               "--max-sessions", str(args.sessions)], cwd=ROOT,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.1)
        server_rss = psutil.Process(server.pid).memory_info().rss
        loop = asyncio.new_event_loop()
        rows, open_ = [], []
        for n in range(args.sessions):
            before = {p.pid for p in psutil.Process(server.pid).children(recursive=True)}
            seconds, client, ws = loop.run_until_complete(first_frame(f"ws://127.0.0.1:{port}"))
            open_.append((client, ws))
            time.sleep(1.0)  # let it settle after the first frame
            (app,) = [p for p in psutil.Process(server.pid).children(recursive=True) if p.pid not in before]
            mem = app.memory_full_info()
            rows.append((seconds, mem.rss, getattr(mem, "pss", mem.rss), getattr(mem, "uss", mem.rss), app))
            pss, uss = getattr(mem, "pss", mem.rss), getattr(mem, "uss", mem.rss)
            print(f"session {n + 1}: first frame {seconds:5.2f} s   RSS {mem.rss / 2**20:6.1f} MiB   "
                  f"PSS {pss / 2**20:6.1f} MiB   USS {uss / 2**20:6.1f} MiB")
        for *_, app in rows:
            app.cpu_percent(None)
        time.sleep(10)
        idle_cpu = [app.cpu_percent(None) for *_, app in rows]
        pss = statistics.median(r[2] for r in rows)
        available = psutil.virtual_memory().available
        fit = int(max(available - 2**30, 0) / pss)
        print(f"\nserver itself: RSS {server_rss / 2**20:.1f} MiB")
        print(f"median first frame {statistics.median(r[0] for r in rows):.2f} s; median PSS {pss / 2**20:.1f} MiB, "
              f"RSS {statistics.median(r[1] for r in rows) / 2**20:.1f} MiB per session")
        print(f"idle CPU per session over 10 s: {', '.join(f'{c:.1f}%' for c in idle_cpu)}")
        print(f"{psutil.cpu_count()} CPUs, {available / 2**30:.1f} GiB available: about {fit} idle sessions fit "
              "in memory (keeping 1 GiB back); CPU, not memory, limits how many can be busy at once")
        for client, ws in open_:
            loop.run_until_complete(client.close())
        loop.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
