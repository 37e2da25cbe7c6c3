"""Tests read English unless they choose a language: the developer's locale (LANG=zh_CN…) must not
change what `rnntui.cli.main` prints. They read and write a cache of their own, not the developer's
~/.cache/rnntui: a timing lab run there made parallel/timing draw measured results in every test."""
import os
import shutil
import tempfile

import pytest

os.environ["RNNTUI_LANG"] = "en"
CACHE = os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="rnntui-tests-cache-")


def pytest_collection_modifyitems(items):
    """Long tests first: with xdist's worksteal, whoever gets one starts it at once and the others
    share the rest, instead of one worker finishing alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


@pytest.fixture(autouse=True)
def _english_again():
    yield
    from rnntui.i18n import language, set_language

    if language() != "en":
        set_language("en")


@pytest.fixture
def keymap(tmp_path, monkeypatch):
    """`keymap(text)`: the user's keymap file holds `text` (its whole TOML), for the app made next."""
    def write(text: str) -> None:
        (tmp_path / "rnntui").mkdir(exist_ok=True)
        (tmp_path / "rnntui" / "keymap.toml").write_text(text, encoding="utf-8")
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return write


def pytest_sessionfinish(session):
    """The apps tests/one_app.py shares end with the test process; the tests' cache goes."""
    import sys

    if "one_app" in sys.modules:
        sys.modules["one_app"].close()
    shutil.rmtree(CACHE, ignore_errors=True)
