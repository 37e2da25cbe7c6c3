"""The command line (SPEC §4). Bad input gets one line on stderr and exit status 2."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from rnntui import __version__
from rnntui.state import BadValue

SUBCOMMANDS = ("shot",)


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise BadValue(message)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="set a parameter (repeatable)")
    p.add_argument("--step", metavar="N", help="the focused figure's time axis (t, hop, step, …)")
    p.add_argument("--theme", default="dark", metavar="NAME", help="dark (default), light, or any Textual theme")


def main_parser() -> Parser:
    p = Parser(prog="rnntui", description="Step through the recurrent network, its gradients, the LSTM and attention.",
               epilog="rnntui shot TOPIC[/FIGURE] ... -o FILE renders one state headless (.svg .txt .json); "
                      "see `rnntui shot --help`.")
    p.add_argument("address", nargs="?", default=None, metavar="TOPIC[/FIGURE]", help="where to open (see --list)")
    _common(p)
    p.add_argument("--list", action="store_true", help="list topics, figures and their keys")
    p.add_argument("--version", action="version", version=f"rnntui {__version__}")
    return p


def shot_parser() -> Parser:
    p = Parser(prog="rnntui shot", description="Render one state headless; the format comes from FILE's suffix.")
    p.add_argument("address", metavar="TOPIC[/FIGURE]")
    _common(p)
    p.add_argument("--size", default="100x30", metavar="WxH", help="terminal size (default 100x30)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help=".svg, .txt or .json; - for text on stdout")
    return p


def parse_size(text: str) -> tuple[int, int]:
    w, x, h = text.lower().partition("x")
    if not (x and w.isdigit() and h.isdigit()) or not (40 <= int(w) <= 500 and 12 <= int(h) <= 200):
        raise BadValue(f"--size {text!r}: expected WxH, from 40x12 to 500x200")
    return int(w), int(h)


def check_theme(name: str) -> None:
    from textual.theme import BUILTIN_THEMES

    from rnntui.app import THEMES

    if name not in THEMES and name not in BUILTIN_THEMES:
        raise BadValue(f"--theme {name!r}: choose dark, light or a Textual theme ({', '.join(sorted(BUILTIN_THEMES))})")


def output_format(path: str) -> str:
    from rnntui.render import FORMATS

    if path == "-":
        return "txt"
    fmt = Path(path).suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise BadValue(f"-o {path}: the suffix must be one of " + ", ".join("." + f for f in FORMATS))
    return fmt


def check_writable(path: str) -> None:
    if path == "-":
        return
    folder = Path(path).resolve().parent
    if not folder.is_dir():
        raise BadValue(f"cannot write {path}: folder {folder} does not exist")
    if Path(path).is_dir() or not os.access(folder, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise BadValue(f"cannot write {path}: permission denied or not a file")


def write_atomic(path: str, text: str) -> None:
    """Write beside the target, then rename: a failure leaves any old file whole."""
    folder = Path(path).resolve().parent
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rnntui-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def list_text() -> str:
    from rnntui.topics import TOPICS

    lines = []
    for n, screen in enumerate(TOPICS, 1):
        lines.append(f"{n} {screen.TOPIC_ID:<12} {screen.TITLE}")
        for f in screen.FIGURES:
            keys = " ".join(p.name for p in f.state.params())
            lines.append(f"    {screen.TOPIC_ID}/{f.id:<14} {f.refs:<8} {f.title}   [{keys}]")
    return "\n".join(lines) + "\n"


def run_shot(argv: list[str]) -> int:
    from rnntui.render import render
    from rnntui.topics import build_state, find

    args = shot_parser().parse_args(argv)
    fmt = output_format(args.output)
    size = parse_size(args.size)
    check_theme(args.theme)
    screen, figure = find(args.address, args.set)
    state = build_state(figure, args.set, args.step)
    check_writable(args.output)
    text = render(screen, figure, state, fmt, size, args.theme)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        write_atomic(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def run_app(argv: list[str]) -> int:
    args = main_parser().parse_args(argv)
    if args.list:
        sys.stdout.write(list_text())
        return 0
    from rnntui.topics import TOPICS, build_state, find

    check_theme(args.theme)
    screen, figure = find(args.address or TOPICS[0].TOPIC_ID, args.set)
    state = build_state(figure, args.set, args.step) if (args.set or args.step is not None) else None
    from rnntui.app import RnnApp

    RnnApp(screen.TOPIC_ID, figure.id if (args.address and "/" in args.address) or state else None,
           state, args.theme).run()
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv and argv[0] == "shot":
            return run_shot(argv[1:])
        return run_app(argv)
    except BadValue as e:
        print(f"rnntui: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"rnntui: {e.strerror or e}: {getattr(e, 'filename', '') or ''}".rstrip(": "), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
