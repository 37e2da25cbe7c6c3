"""Random keys (palette included) at random sizes from 1×1 to 300×80, over every figure of every
topic, with a fixed seed: the app stays alive, every state stays in bounds, every screen renders.
The long run is `python bench/fuzz.py` (100,000 keys)."""
import importlib.util
import sys
from pathlib import Path

import pytest

from rnntui.topics import topics

BENCH = Path(__file__).resolve().parent.parent / "bench" / "fuzz.py"


def load_fuzz():
    if "rnntui_bench_fuzz" not in sys.modules:
        spec = importlib.util.spec_from_file_location("rnntui_bench_fuzz", BENCH)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclass looks itself up there
        spec.loader.exec_module(module)
    return sys.modules["rnntui_bench_fuzz"]


@pytest.mark.heavy
def test_fuzz_keys_sizes_and_palette(tmp_path):
    """1,500 keys, every one a real key event (the harness's direct-action shortcut can drive Textual
    into a resize loop no person can reach: see OPEN in bench/fuzz.py), in a process of its own with
    a hard time limit, so a hang fails here instead of holding CI."""
    import os
    import subprocess

    env = {**os.environ, "RNNTUI_SHOTS": str(tmp_path)}  # ctrl+s and the palette's screenshot land here
    r = subprocess.run([sys.executable, str(BENCH), "--keys", "1500", "--seed", "11", "--real", "1.0"],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0 and " 0 failures" in r.stdout, (r.stdout + r.stderr)[-2000:]


def test_the_fuzz_key_map_follows_the_keyboard_contract():
    fuzz = load_fuzz()
    assert "t" not in fuzz.DIRECT + fuzz.TYPED + fuzz.NAVIGATE and "q" not in fuzz.TYPED + fuzz.NAVIGATE
    assert fuzz.ACTIONS["right"] == "step(1)" and fuzz.ACTIONS["n"] == "app.next_topic"
    keys = {p.key for t in topics() for f in t.FIGURES for p in f.state_type.params() if p.key}
    assert keys <= set(fuzz.ACTIONS)
