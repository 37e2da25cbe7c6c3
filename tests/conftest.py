"""Tests read English unless they choose a language: the developer's locale (LANG=zh_CN…) must not
change what `rnntui.cli.main` prints."""
import os

import pytest

os.environ["RNNTUI_LANG"] = "en"


@pytest.fixture(autouse=True)
def _english_again():
    yield
    from rnntui.i18n import language, set_language

    if language() != "en":
        set_language("en")
