"""Torch-free labs that end badly, for the lab runner's tests (run in the lab's child process)."""
import os
import signal
import time


def exits(state, report):
    """One report, then the process ends with status 3 and no result (a crash)."""
    report(0, 2, "one")
    os._exit(3)


def killed(state, report):
    """One report, then SIGKILL (the OOM killer taking a 330 MB torch child)."""
    report(0, 2, "one")
    os.kill(os.getpid(), signal.SIGKILL)


def silent(state, report):
    """One report, then a minute without one (a long step)."""
    report(0, 1, "one")
    time.sleep(60)
    return {}


def floods(state, report):
    """50 reports of 100 KB (seq2seq's carry its weights), then a file at `state` says the work is done."""
    for i in range(50):
        report(i, 50, "", b"x" * 100_000)
    with open(state, "w") as done:
        done.write("done")
    return {"n": 50}


def speaks(state, report):
    """A word of the catalogue, as the child says it (a refused save's reason is one)."""
    from rnntui.i18n import _

    return _("never")


def use(monkeypatch, screen, target: str = "lab_standins:silent") -> None:
    """For a test, `screen`'s figures that have a lab run `target` instead (a torch-free stand-in)."""
    from dataclasses import replace

    monkeypatch.setattr(screen, "FIGURES", tuple(
        replace(f, lab=replace(f.lab, target=target)) if f.lab else f for f in screen.FIGURES))


async def first_run(monkeypatch, screen, figure: str, size=(100, 30)):
    """The run `t` starts on `screen`'s figure with a stand-in lab (`silent`), as it stands once started; `t`
    again cancels it before the app closes."""
    from rnntui.app import RnnApp

    use(monkeypatch, screen)
    app = RnnApp(screen.TOPIC_ID, figure)
    async with app.run_test(size=size) as pilot:
        await pilot.press("t")
        run = app.topic_screen().state.run
        await pilot.press("t")
    return run
