"""One headless app per terminal size, shared by the tests of a test process.

    import one_app
    text = one_app.txt(screen, figure, state, (80, 24))

draws the state as `rnntui.render.render(screen, figure, state, "txt", size)` does (what `rnntui
shot -o x.txt` writes), without starting an app for each frame: each size's app (a
`rnntui.render.Session`) runs in a thread of its own and draws every frame asked of it, as
`rnntui export` does (tests/test_slides.py::test_one_app_renders_the_same_frames_as_a_fresh_one:
the frames are the same as a fresh app's).

For English frames only, and for tests that patch nothing an app reads when it starts (the
keymap, the theme): those call `render` for an app of their own. RNNTUI_TEST_FRESH_APPS=1 draws
every frame in a fresh app instead (to tell whether a failure comes from sharing)."""
from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading

_loop: asyncio.AbstractEventLoop | None = None
_queues: dict[tuple[int, int], asyncio.Queue] = {}
_tasks: list[concurrent.futures.Future] = []


def txt(screen, figure, state, size=(100, 30)) -> str:
    from rnntui.i18n import language
    from rnntui.render import render

    if os.environ.get("RNNTUI_TEST_FRESH_APPS"):
        return render(screen, figure, state, "txt", size)
    assert language() == "en", "the shared apps draw English: call rnntui.render.render for another language"
    size = tuple(size)
    if size not in _queues:
        _start(size)
    out: concurrent.futures.Future = concurrent.futures.Future()
    _loop.call_soon_threadsafe(_queues[size].put_nowait, ((screen, figure, state), out))
    return out.result(timeout=300)


def _start(size) -> None:
    global _loop
    if _loop is None:
        _loop = asyncio.new_event_loop()
        threading.Thread(target=_loop.run_forever, name="one_app", daemon=True).start()
    _queues[size] = queue = asyncio.Queue()
    _tasks.append(asyncio.run_coroutine_threadsafe(_serve(size, queue), _loop))


async def _serve(size, queue: asyncio.Queue) -> None:
    """One app for `size`, kept in one task from start to end (Textual's context lives in it)."""
    from rnntui.render import Session

    job = await queue.get()
    try:
        async with Session(size) as session:
            while job is not None:
                args, out = job
                try:
                    text = (await session.frame(*args, ("txt",)))["txt"]
                except BaseException as e:  # the test sees it; the next frame gets a fresh app
                    _forget(size, queue)
                    out.set_exception(e)
                    return
                out.set_result(text)
                job = await queue.get()
    except BaseException as e:  # the app did not start, or did not close
        _forget(size, queue)
        if job is not None and not job[1].done():
            job[1].set_exception(e)
    finally:
        _forget(size, queue)


def _forget(size, queue) -> None:
    if _queues.get(size) is queue:
        del _queues[size]


def close() -> None:
    """End every shared app (conftest calls this when the test process is done)."""
    global _loop
    if _loop is None:
        return
    for queue in list(_queues.values()):
        _loop.call_soon_threadsafe(queue.put_nowait, None)
    for task in _tasks:
        try:
            task.result(timeout=30)
        except Exception:
            pass
    _loop.call_soon_threadsafe(_loop.stop)
    _loop = None


def slides(address: str, size=(100, 30)) -> list[str]:
    """The shipped lecture's slides of one figure (`attention/qkv`), as `rnntui present lecture` draws
    them at `size` (no header, no footer): in a present-mode app of their own, in the current language."""
    from rnntui.deck import load
    from rnntui.render import Session

    deck = load("lecture")
    at = [i for i, frame in enumerate(deck.frames) if frame.address == address]

    async def draw() -> list[str]:
        async with Session(tuple(size), deck=deck) as session:
            return [(await session.slide(i, ("txt",)))["txt"] for i in at]

    return asyncio.run(draw())
