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


def pytest_sessionfinish(session):
    """The apps tests/one_app.py shares end with the test process; the tests' cache goes."""
    import sys

    if "one_app" in sys.modules:
        sys.modules["one_app"].close()
    shutil.rmtree(CACHE, ignore_errors=True)
