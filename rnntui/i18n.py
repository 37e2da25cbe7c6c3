"""Languages (issue 17): English msgids, translations in gettext catalogues, chosen at run time.

    from rnntui.i18n import _, N_

    _("wrote {path}").format(path=path)      # translated now, in the current language
    TITLE = N_("One token at a time")         # only marked: a module constant stays the English msgid
    ...
    label.update(_(TITLE))                    # ...and is translated where it is drawn

Every string a person reads is an English msgid. `_()` looks it up in the current language's
catalogue (rnntui/locale/<lang>/LC_MESSAGES/rnntui.mo, read with the standard library's gettext:
Babel is only needed to extract and compile, never at run time); a msgid with no translation comes
back as it is. `N_()` marks a string for extraction without translating it: for module-level
constants (Figure titles and prose, topic titles, the keyboard contract's words), which are made at
import time, before the language is known, and may be drawn again after it changes. Whatever draws
them calls `_()` on them at display time.

The language: `set_language("zh"|"en")`, `language()`. The command line takes `--lang`; without it
`default_language()` reads RNNTUI_LANG, then LC_ALL, LC_MESSAGES and LANG (the first one set): zh_*
(or zh) is Chinese, anything else English. In the app, the command palette's "Language" commands
switch live (`RnnApp.language`).

Translators: `python -m rnntui.i18n extract|update|compile|all` (needs `pip install babel`):
extract writes rnntui/locale/rnntui.pot from the source (babel.cfg), update merges it into each
language's .po, compile writes the .mo files the package ships. Edit
rnntui/locale/zh/LC_MESSAGES/rnntui.po (msgstr lines), then run `all`.
"""
from __future__ import annotations

import gettext
import os
import sys
import unicodedata
from pathlib import Path

DOMAIN = "rnntui"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "zh")  # en: the msgids themselves
NAMES = {"en": "English", "zh": "中文"}

_current = "en"
_translation: gettext.NullTranslations = gettext.NullTranslations()


def _(message: str) -> str:
    """`message` in the current language (itself when there is no translation)."""
    if not message:  # gettext("") is the catalogue's header
        return message
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def spaced(label: str) -> str:
    """A label and the space before what follows it; none after a full-width colon, semicolon, comma or
    full stop, which carries its own (不变式： h_t read as a stray space)."""
    return label if not label or label.endswith(("：", "；", "，", "。")) else label + " "  # (none: no space)


BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


JOINERS = frozenset("\u200c\u200d")  # (an emoji's ZWJ, Persian's ZWNJ: they mean something, a review)


def invisible(ch: str) -> bool:
    """A control character (a line break and a tab apart), a mark that turns the text's direction, or any
    other format character but the joiners, which draws nothing (a zero-width space in a slide's title stopped
    its export at "cannot draw", naming no slide: a trial; U+2063 too: a review)."""
    kind = unicodedata.category(ch)
    return ch in BIDI or (kind == "Cf" and ch not in JOINERS) or (kind == "Cc" and ch not in "\n\t")


def one_line(text: str) -> str:
    """`text` as one line a terminal shows as it is: line breaks and invisible characters escaped."""
    return "".join("\\n" if ch == "\n" else f"\\u{ord(ch):04x}" if invisible(ch) else ch for ch in text)


def aside(note: str) -> str:
    """A bracketed note after what it qualifies: with a space before it, unless it opens with a
    full-width bracket, which carries its own ("805M （占全部 10.0%）" read as a stray space)."""
    return note if note.startswith("（") else " " + note


def listed(names) -> str:
    """Names side by side: "W_h W_x b", in Chinese "W_h、W_x、b" ("W_h 激活" read as "W_h's activation", a
    Chinese student's trial)."""
    return ("、" if language() == "zh" else " ").join(names)


def commas(names) -> str:
    """Choices in a list: "tanh, relu", in Chinese "tanh、relu" ("应为 tanh, relu 之一": a Chinese student)."""
    return ("、" if language() == "zh" else ", ").join(names)


def colon(label: str) -> str:
    """A label and its colon, full-width in Chinese ("编码器：", not "编码器:")."""
    return _("{label}:").format(label=label)


def N_(message: str) -> str:
    """Mark `message` for the catalogue without translating it: call `_()` on it where it is drawn."""
    return message


def language() -> str:
    return _current


def check_language(lang: str, where: str = "--lang") -> str:
    """The language code for `lang` (zh, zh_CN, zh-Hans, en_GB, … are accepted); BadValue otherwise,
    naming `where` it was given."""
    code = normalise(lang)
    if code is None:
        from rnntui.state import BadValue

        given = f"{where}{'=' if where.isupper() else ' '}{lang!r}"
        raise BadValue(_("{given}: choose en or zh").format(given=given))  # (in the locale's language, a review)
    return code


def normalise(lang: str | None) -> str | None:
    """`zh_CN.UTF-8` → "zh", `en` → "en"; None for a language rnntui does not speak."""
    if not lang:
        return None
    base = lang.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def set_language(lang: str) -> None:
    """Switch every later `_()` to `lang` (en or zh); BadValue for any other."""
    global _current, _translation
    code = check_language(lang)
    if code == "en":
        _translation = gettext.NullTranslations()
    else:
        _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    _current = code


def default_language(environ=None) -> str:
    """RNNTUI_LANG if set (BadValue for a language rnntui does not speak, as --lang), else the locale
    (LC_ALL, LC_MESSAGES, LANG: the first one set): zh_* → zh, anything else → en."""
    env = os.environ if environ is None else environ
    chosen = env.get("RNNTUI_LANG", "").strip()
    if chosen:  # (RNNTUI_LANG=fr gave English without a word, while --lang fr was refused; C and POSIX, the
        return "en" if chosen.split(".")[0] in ("C", "POSIX") else check_language(chosen, "RNNTUI_LANG")  # locale's
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:
            return "zh" if normalise(value) == "zh" else "en"
    return "en"


def take_lang(argv: list[str]) -> tuple[list[str], str | None]:
    """(argv without `--lang X` / `--lang=X`, X or None). Read before any parser is built, so that
    the parsers' help and messages come out in that language."""
    from rnntui.state import BadValue

    out, lang, i = [], None, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            out += argv[i:]
            break
        name, eq, value = arg.partition("=")
        if name not in ("--la", "--lan", "--lang"):  # (argparse took --la as --lang, and nothing read it: a review)
            out.append(arg)
            i += 1
            continue
        if not eq:
            if i + 1 >= len(argv):
                raise BadValue(_("{given}: choose en or zh").format(given="--lang"))
            value, i = argv[i + 1], i + 1
        if lang is not None:  # (the last took it without a word, as every option given twice did: a review)
            raise BadValue(_("{option} is given twice ({first}, {second}); give it once").format(
                option="--lang", first=lang, second=value))
        lang = value
        i += 1
    return out, lang


# -- the catalogue (translators; needs Babel) -----------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent
POT = LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _babel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    here = os.getcwd()
    os.chdir(ROOT)  # babel.cfg's patterns are relative to the repository
    try:
        code = CommandLineInterface().run(["pybabel", "-q", *args])
    finally:
        os.chdir(here)
    if code:
        raise SystemExit(f"pybabel {args[0]} failed ({code})")


def extract() -> None:
    _babel("extract", "-F", "babel.cfg", "-o", str(POT), "--project", "rnntui", "--no-location",
           "--sort-output", "--omit-header", "-c", "TRANSLATORS:", "rnntui")


def update() -> None:
    for lang in LANGUAGES[1:]:
        if po_path(lang).exists():
            _babel("update", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang,
                   "--no-fuzzy-matching", "--ignore-obsolete")
        else:
            _babel("init", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang)


def compile_catalogues(directory: Path | None = None) -> None:
    """Compile each language's .po into its .mo (in `directory` instead of the package's, for tests)."""
    for lang in LANGUAGES[1:]:
        target = (directory or LOCALE_DIR) / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        _babel("compile", "-i", str(po_path(lang)), "-o", str(target), "-l", lang, "--statistics")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    steps = {"extract": [extract], "update": [update], "compile": [compile_catalogues],
             "all": [extract, update, compile_catalogues]}
    if len(argv) != 1 or argv[0] not in steps:
        print("usage: python -m rnntui.i18n extract|update|compile|all   (needs: pip install babel)",
              file=sys.stderr)
        return 2
    try:
        import babel  # noqa: F401
    except ImportError:
        print("rnntui.i18n: the catalogue tools need Babel: pip install babel", file=sys.stderr)
        return 2
    for step in steps[argv[0]]:
        step()
    return 0


if __name__ == "__main__":
    sys.exit(main())
