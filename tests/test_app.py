"""App-wide promises: every screen renders at many sizes without torch; snapshots at 80x24."""
import subprocess
import sys

import pytest

from rnntui.app import RnnApp
from rnntui.topics import topics

ALL = [(t.TOPIC_ID, f.id) for t in topics() for f in t.FIGURES]

NO_TORCH = """
import sys
from rnntui.render import render
from rnntui.topics import topics
for screen in topics():
    for f in screen.FIGURES:
        render(screen, f, f.state_type(), "txt", (80, 24))
print("torch" in sys.modules)
"""


def test_rendering_every_screen_leaves_torch_out():
    r = subprocess.run([sys.executable, "-c", NO_TORCH], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "False"


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (200, 60)])
async def test_every_figure_survives_stepping_at_sizes(size):
    app = RnnApp()
    async with app.run_test(size=size) as pilot:
        for topic in topics():
            await app.goto(topic.TOPIC_ID)
            for _ in topic.FIGURES:
                await pilot.press("end", "plus", "down", "minus", "left", "tab")
        await pilot.pause()
        assert app.topic_screen() is not None


def test_snapshot_recurrence_track(snap_compare):
    async def steps(pilot):
        await pilot.press("right", "right", "right")
    assert snap_compare(RnnApp("recurrence", "track"), terminal_size=(80, 24), run_before=steps)
