"""The command line (SPEC §4). Bad input gets one line on stderr and exit status 2."""
from __future__ import annotations

import argparse
import errno
import gc
import os
import re
import shlex
import sys
from contextlib import contextmanager, suppress
from pathlib import Path

from rnntui import __version__
from rnntui.files import check_no_file_in_the_way, followed, path_arg, reason, write_atomic
from rnntui.i18n import N_, _, colon, commas, one_line, spaced
from rnntui.state import BadValue, Marked, digits
from rnntui.terminal import Stopped, require_terminal, stop_between_frames, stopped_by_signals
from rnntui.terminal import run as run_tui


# argparse's own words (it looks them up with gettext): main() points argparse at our catalogue
ARGPARSE_WORDS = (N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
                  N_("show program's version number and exit"), N_("argument %(argument_name)s: %(message)s"),
                  N_("unrecognized arguments: %s"), N_("the following arguments are required: %s"),
                  N_("expected one argument"), N_("invalid %(type)s value: %(value)r"),
                  N_("invalid choice: %(value)r (choose from %(choices)s)"),
                  N_("ambiguous option: %(option)s could match %(matches)s"))


class CellsFormatter(argparse.HelpFormatter):
    """Help wrapped to the terminal's cells: argparse counts a Chinese character one column, and its
    Chinese lines ran to twice the width (the terminal broke them anywhere)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if text.isascii():
            return super()._split_lines(text, width)
        from rnntui.widgets.cells import wrap

        return wrap(" ".join(text.split()), width)

    def _format_usage(self, usage, actions, groups, prefix) -> str:
        from rich.cells import cell_len

        said = argparse._("usage: ") if prefix is None else prefix  # ("用法：" is 6 cells, 3 letters)
        wider = cell_len(said) - len(said)
        self._width -= wider
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += wider
        if usage is not None:  # (given whole: intermixed parsing keeps what this formatted)
            return text
        first, *rest = text.split("\n")  # continuation lines under the program's name, not 3 cells left of it
        return "\n".join([first, *(" " * wider + line if line.strip() else line for line in rest)])

    def format_help(self) -> str:
        text = super().format_help()  # "位置参数：", not argparse's ASCII colon after a Chinese heading
        return re.sub(r"(?m)^(\S[^\n]*[^\x00-\x7f]):$", r"\1：", text)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.isascii():
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in self._split_lines(text, width - len(indent)))


class Parser(argparse.ArgumentParser):
    missing = ""  # said after argparse's "the following arguments are required: …"
    intermixed = False  # positionals after options too (export OUTDIR --deck lecture memory)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, formatter_class=kwargs.pop("formatter_class", CellsFormatter), **kwargs)

    def add_argument(self, *args, **kwargs):
        """Every option that takes one value takes it once (`Once`): a second --size, --theme or -o took the
        last without a word, where a second --step is refused (a CLI trial)."""
        if args and args[0].startswith("-") and kwargs.get("action", "store") == "store":
            kwargs["action"] = Once
        return super().add_argument(*args, **kwargs)

    def error(self, message: str):
        required = argparse._("the following arguments are required: %s").partition("%s")[0]
        if self.missing and message.startswith(required):
            message = _("{message} ({missing})").format(message=message, missing=self.missing)
        raise BadValue(message)

    def _print_message(self, message, file=None):
        """--help and --version as argparse prints them, but a standard output that refuses them is an OSError
        (one line, exit 2): argparse drops it (`--help >/dev/full` said nothing, exit 0, an audit)."""
        if message and (file is None or file is sys.stdout):
            sys.stdout.write(message)
            sys.stdout.flush()
            return
        super()._print_message(message, file)

    def glued(self, words: list[str]) -> list[str]:
        """An option's value that starts with - taken as its value, as --size=-100x30 is: argparse said only
        "argument --size: expected one argument", and the option's own check never saw it (a power user's trial)."""
        out = []
        for word in words:
            action = self._option_string_actions.get(out[-1]) if out else None
            if (action is not None and action.nargs is None  # (one value: flags, help and version take none)
                    and word.startswith("-") and word != "--" and word not in self._option_string_actions
                    and "=" not in out[-1]):  # ("--": argparse's end of options, a list: a traceback, a review)
                out[-1] = f"{out[-1]}={word}"
            else:
                out.append(word)
        return out

    def parse_args(self, args=None, namespace=None):
        if self.intermixed and self.usage is None:  # argparse's intermixed parsing keeps format_usage()[7:],
            # "usage: " cut off; "用法：" is 3 letters ("用法：ui export", a Chinese student's trial)
            self.usage = self.format_usage()[len(argparse._("usage: ")):].rstrip("\n")
        args = self.glued(list(sys.argv[1:] if args is None else args))
        known, extras = (self.parse_known_intermixed_args if self.intermixed else self.parse_known_args)(args, namespace)
        words = args
        for item in getattr(known, "set", ()):  # "--set d_k 64" said "unrecognized arguments: 64", no hint
            at = next((k for k, w in enumerate(words) if w in (item, "--set=" + item)), None) if "=" not in item else None
            after = words[at + 1:at + 2] if at is not None else []
            if after and (after[0] in extras or after[0] == getattr(known, "address", None)) and _a_value(after[0]):
                raise BadValue(_("--set {item!r}: expected KEY=VALUE, such as --set {item}={value}").format(
                    item=item, value=after[0].lstrip("=")))
        if extras:
            self.error(argparse._("unrecognized arguments: %s") % " ".join(extras))
        return known


def _a_value(word: str) -> bool:
    """Whether a word after a bare --set KEY reads as its value: not an option, not a topic (`rnntui --set
    w_h recurrence/track` suggested --set w_h=recurrence/track, a review)."""
    from rnntui.topics import find

    try:
        if word.startswith("-"):  # (a negative number is a value: --set w_h -1)
            number(word)
        find(word)
    except argparse.ArgumentTypeError:
        return False
    except BadValue:
        return True
    return False


class Once(argparse.Action):
    """An option given at most once: a second --step silently won, where --set refuses a key given twice."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", set())  # (an option with a default is given once too)
        if self.dest in given:
            raise BadValue(_("{option} is given twice ({first}, {second}); give it once").format(
                option=self.option_strings[-1], first=getattr(namespace, self.dest), second=values))
        given.add(self.dest)
        setattr(namespace, self.dest, values)


def whole(text: str) -> int:
    """An option's whole number ("--port abc" read "invalid int value: 'abc'", argparse's words)."""
    try:
        return int(digits(text))
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a whole number").format(text=text)) from None


def number(text: str) -> float:
    try:
        return float(digits(text))
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number").format(text=text)) from None


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help=_("set a parameter (repeatable)"))
    p.add_argument("--step", metavar="N", help=_("the focused figure's time axis (t, hop, step, …)"))
    p.add_argument("--theme", default="dark", metavar="NAME", type=theme_name,
                   help=_("dark (default), light, projector (black on white), or any Textual theme"))
    _lang(p)


def _lang(p: argparse.ArgumentParser) -> None:
    # read (and removed) by main() before any parser is built; listed here for --help
    p.add_argument("--lang", metavar="zh|en",
                   help=_("the language: zh (中文) or en; default: $RNNTUI_LANG, else the locale (LANG)"))


def main_parser() -> Parser:
    p = Parser(prog="rnntui", description=_("Step through the recurrent network, its gradients, the LSTM and attention."),
               epilog=_("rnntui shot TOPIC[/FIGURE] ... -o FILE renders one state headless (.svg .png .txt .json); "
                        "rnntui export OUTDIR renders every figure's key frames (or a deck's) for slides; "
                        "rnntui present DECK shows a deck full screen (try: rnntui present lecture); "
                        "rnntui serve lets browsers open the app (needs textual-serve, the [serve] extra); "
                        "rnntui train seq2seq|memory|timing reruns a lab with a progress bar. "
                        "See `rnntui shot --help` and the others."))
    p.add_argument("address", nargs="?", default=None, metavar="TOPIC[/FIGURE]", type=address_arg,
                   help=_("where to open (see --list)"))
    _common(p)
    p.add_argument("--list", action="store_true", help=_("list topics, figures and their keys"))
    p.add_argument("--version", action="version", version=f"rnntui {__version__}", help=_("show the version and exit"))
    return p


def shot_parser() -> Parser:
    p = Parser(prog="rnntui shot", description=_("Render one state headless; the format comes from FILE's suffix."),
               # (a lecturer looked for slides without the app's header and keys, a trial)
               epilog=_("A shot is the app's screen, header and keys included. For slides of the figure "
                        "alone, with a title and caption: rnntui export OUTDIR --deck DECK (see rnntui export --help)."))
    p.add_argument("address", metavar="TOPIC[/FIGURE]", type=address_arg)
    _common(p)
    p.add_argument("--size", default="100x30", metavar="WxH", help=_("terminal size (default 100x30)"))
    p.add_argument("-o", "--output", required=True, type=path_arg, metavar="FILE",
                   help=_(".svg, .png, .txt or .json; - for text on stdout"))
    _scale(p)
    return p


def _scale(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scale", metavar="X",
                   help=_("PNG pixels per SVG unit: 1 is about 12 px per column, 2 (default) is crisp on slides"))


def parse_scale(text: str | None, formats=("png",)) -> float:
    """--scale as a number (2 when not given); BadValue when it is out of range, or given for output that
    has no pixels (an SVG scales as it is shown; text has none): it would be ignored without a word."""
    if text is None:
        return 2.0
    if "png" not in formats:
        raise BadValue(_("--scale {text}: only PNG output has pixels to scale (this writes {formats})").format(
            text=text, formats=",".join(formats)))
    try:
        scale = float(text)
    except ValueError:
        scale = 0.0
    if not 0.25 <= scale <= 8:
        raise BadValue(_("--scale {text!r}: expected a number from 0.25 to 8").format(text=text))
    return scale


def export_parser() -> Parser:
    p = Parser(prog="rnntui export",
               description=_("Render every figure at its key steps (or a deck's frames) headless into OUTDIR: "
                             "numbered files named by topic, figure and step, and an index.md with captions."))
    p.intermixed = True
    p.add_argument("outdir", type=path_arg, metavar="OUTDIR", help=_("the folder to write (created if missing)"))
    p.add_argument("only", nargs="*", default=[], metavar="TOPIC[/FIGURE]", type=address_arg,
                   help=_("only these topics or figures (default: all); a deck's frames of them"))
    p.add_argument("--deck", type=path_arg, metavar="FILE",
                   help=_("a TOML deck file, or a shipped deck by name (lecture): export its frames as "
                          "`rnntui present` shows them, instead of every figure"))
    p.add_argument("--format", default="svg", metavar="LIST", help=_("comma separated: svg,png,txt,json (default svg)"))
    p.add_argument("--size", default="100x30", metavar="WxH", help=_("terminal size (default 100x30)"))
    p.add_argument("--theme", default="dark", metavar="NAME", type=theme_name,
                   help=_("dark (default), light, projector, or a Textual theme"))
    _scale(p)
    p.add_argument("--force", action="store_true",
                   help=_("replace existing files, and remove the files an earlier export listed in its index.md "
                          "that this one does not write"))
    _lang(p)
    return p


def present_parser() -> Parser:
    p = Parser(prog="rnntui present",
               description=_("Show a deck's frames full screen: space/→/n next, ←/p back, home/end, 7 enter: "
                             "slide 7, ctrl+s save, ? keys, q quit."))
    p.add_argument("deck", type=path_arg, metavar="DECK", help=_("a TOML deck file, or the name of a shipped deck: lecture"))
    p.add_argument("--theme", default="dark", metavar="NAME", type=theme_name,
                   help=_("dark (default), light, projector, or a Textual theme"))
    p.add_argument("--start", default=1, type=whole, metavar="N", help=_("the frame to open at (default 1)"))
    _lang(p)
    from rnntui.deck import shipped

    p.missing = _("a deck file, or a shipped deck: {decks}").format(decks=commas(shipped()))
    return p


def serve_parser() -> Parser:
    p = Parser(prog="rnntui serve",
               description=_("Serve the app to browsers: each tab gets its own app, or presents --deck "
                             "(needs textual-serve, the [serve] extra)."))
    p.add_argument("address", nargs="?", default=None, metavar="TOPIC[/FIGURE]", type=address_arg,
                   help=_("where each app opens"))
    from rnntui.deck import shipped

    p.add_argument("--deck", type=path_arg, metavar="DECK",
                   help=_("present a deck in each tab instead (as rnntui present DECK): a TOML deck file, or a "
                          "shipped deck: {decks}").format(decks=commas(shipped())))
    p.add_argument("--theme", default="dark", metavar="NAME", type=theme_name,
                   help=_("dark (default), light, projector, or a Textual theme"))
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1: this machine only; 0.0.0.0: every network)"))
    p.add_argument("--port", default=8000, type=whole, help=_("port (default 8000)"))
    p.add_argument("--max-sessions", default=20, type=whole, metavar="N", help=_("apps running at once (default 20)"))
    p.add_argument("--idle-minutes", default=30.0, type=number, metavar="M",
                   help=_("close an app nobody typed into for M minutes (default 30)"))
    _lang(p)
    return p


def parse_size(text: str) -> tuple[int, int]:
    w, x, h = text.lower().partition("x")
    if not (x and w.isdecimal() and h.isdecimal()) or not (40 <= int(w) <= 500 and 12 <= int(h) <= 200):
        raise BadValue(_("--size {text!r}: expected WxH, from 40x12 to 500x200").format(text=text))
    return int(w), int(h)


def theme_name(text: str) -> str:
    """--theme as typed, in any case: every theme's name is lower case (DARK was refused, --lang EN was not)."""
    return text.strip().lower()


def address_arg(text: str) -> str:
    from rnntui.topics import as_address

    return as_address(text)


def not_a_deck(address: str | None, command: str) -> None:
    """A deck named where a topic goes (a .toml file, or a shipped deck's name) is refused with the command
    that takes it: `rnntui export out my.toml` said "unknown topic 'my.toml'" (a lecturer's trial)."""
    from rnntui.deck import shipped

    deck = (address or "").strip()
    deck = deck.lower() if deck.lower() in shipped() else deck  # (Lecture: the shipped deck's name is lecture)
    if deck.lower().endswith(".toml") or deck in shipped():
        raise BadValue(_("{deck} is a deck, not a topic: {command}").format(
            deck=address, command=command.format(deck=shlex.quote(deck))))


def check_theme(name: str) -> None:
    from textual.theme import BUILTIN_THEMES

    from rnntui.app import THEMES

    if name not in THEMES and name not in BUILTIN_THEMES:
        raise BadValue(_("--theme {name!r}: choose dark, light, projector or a Textual theme ({themes})")
                       .format(name=name, themes=commas(sorted(BUILTIN_THEMES))))


def output_format(path: str, address: str = "shot") -> str:
    from rnntui.render import FORMATS

    if path == "-":
        return "txt"
    if path.endswith(("/", os.sep)) or Path(path).is_dir():
        example = os.path.join(path, address.replace("/", "-") + ".svg")
        raise BadValue(_("-o {path}: that is a folder; -o takes a file, such as {example}")
                       .format(path=path, example=example))
    fmt = Path(path).suffix.lstrip(".").lower()
    name = Path(path).name
    if not fmt and name[1:].lower() in FORMATS:  # ".svg": a name, with no suffix (it said "the suffix must be")
        raise BadValue(_("-o {path}: name the file, such as {example}").format(
            path=path, example=os.path.join(os.path.dirname(path), address.replace("/", "-") + name)))
    if fmt not in FORMATS:
        raise BadValue(_("-o {path}: the suffix must be one of {suffixes}")
                       .format(path=path, suffixes=commas("." + f for f in FORMATS)))
    return fmt


def check_writable(path: str) -> None:
    if path == "-":
        return
    folder = Path(os.path.realpath(followed(path))).parent
    check_no_file_in_the_way(path)
    if not folder.is_dir():
        raise BadValue(_("cannot write {path}: folder {folder} does not exist").format(path=path, folder=folder))
    if Path(path).is_dir() or not os.access(folder, os.W_OK) or (Path(path).exists() and not os.access(path, os.W_OK)):
        raise BadValue(_("cannot write {path}: permission denied or not a file").format(path=path))


def list_text() -> str:
    from rnntui.keys import BY_ID, KeysInUse, user_keymap
    from rnntui.state import _shown
    from rnntui.topics import topics

    from rich.cells import cell_len
    from textual.app import App

    moved, problem = user_keymap()  # the keys as the app runs with them (it listed the defaults after a keymap
    if problem:  # moved them, a keyboard audit); a keymap the app would ignore is said, as the app says it
        sys.stderr.write(problem + "\n")
    used = KeysInUse(App._normalize_keymap(moved))
    screens = topics()
    figures = [(screen, f) for screen in screens for f in screen.FIGURES]
    wide = max(len(f"{screen.TOPIC_ID}/{f.id}") for screen, f in figures)  # columns in cells: Chinese
    titled = max(cell_len(_(f.title)) for _screen, f in figures)  # titles are two a character
    lines = []
    for screen in screens:
        lines.append(f"{screen.NUMBER} {screen.TOPIC_ID:<12} {_(screen.TITLE)}")
        for f in screen.FIGURES:
            # --set's names, each after its letter key where it has one, as the footer writes it: `[e]pe` (a
            # student pressed p, the previous topic, for positions' PE), and what the screen calls it where that
            # differs: `scale (input std)` (the list and the screen read as two parameters, a student's trial)
            keys = " ".join((f"[{used.letter(p)}]" if used.letter(p) else "") + p.name
                            + (f" ({_(p.label)})" if _shown(_(p.label)) != _shown(p.name) else "")
                            for p in f.state_type.params())
            # and its other keys, as the footer says them: a lab's t, a table's links (neither was listed, an audit)
            keys += "".join(f" · {used.all(id)} {_(BY_ID[id].footer)}" for id, has in (
                ("lab", f.lab is not None), ("open_link", f.links)) if has)
            title = _(f.title)
            lines.append(f"    {screen.TOPIC_ID + '/' + f.id:<{wide}}  {f.refs:<8} {title}"
                         f"{' ' * (titled - cell_len(title))}   {keys}")
    return "\n".join(lines) + "\n"


@contextmanager
def said_if_stopped(said):
    """ctrl+c, SIGTERM or SIGHUP inside: one line on stderr, `said()` (what was and was not saved; none if
    empty), then on to the exit status 128 + the signal's number (shot, export and train ended without a word
    after ^C, trials)."""
    try:
        yield
    except KeyboardInterrupt:
        if line := said():
            _say(f"rnntui: {line}")
        raise


def nothing_written(path: str) -> str:
    """What a stopped shot or export says: nothing (standard output: what reached it is there)."""
    return "" if path == "-" else _("stopped: nothing written to {path}").format(path=path)


def run_shot(argv: list[str]) -> int:
    from rnntui.engine.records import corrupt_seen
    from rnntui.render import render
    from rnntui.slides import check_readable
    from rnntui.topics import build_state, find

    since = corrupt_seen()  # (building the state may read a cache: memory's step range does)
    args = shot_parser().parse_args(argv)
    fmt = output_format(args.output, args.address)
    size = parse_size(args.size)
    scale = parse_scale(args.scale, (fmt,))
    check_theme(args.theme)
    not_a_deck(args.address, "rnntui export OUTDIR --deck {deck}")
    screen, figure = find(args.address, args.set)
    state = build_state(figure, args.set, args.step)
    check_readable([state], since)  # (a damaged shipped file, a corrupt cache: one line, nothing written)
    check_writable(args.output)
    if fmt == "png":
        from rnntui.png import check_pixels, check_route

        check_route()
        check_pixels(size, scale)
    with said_if_stopped(lambda: nothing_written(args.output)):
        with stop_between_frames() as asked:  # (raised inside the headless app's tasks: a traceback, a review)
            text = render(screen, figure, state, fmt, size, args.theme, scale=scale)
        if asked:
            raise Stopped(asked[0])
        replaced = args.output != "-" and Path(args.output).exists()
        if args.output != "-":
            write_atomic(args.output, text)
    if args.output == "-":
        sys.stdout.write(text)
    else:  # a file there is replaced (slides made again by the same command), not silently (a trial)
        words = _("wrote {path} (replaced the file that was there)") if replaced else _("wrote {path}")
        print(words.format(path=args.output), file=sys.stderr)
    return 0


def run_export(argv: list[str]) -> int:
    from rnntui import slides
    from rnntui.engine.records import corrupt_seen

    since = corrupt_seen()  # (a cache set aside while the frames are built is refused too)
    args = export_parser().parse_args(argv)
    if args.outdir == "-":  # (it made a folder named "-", a CLI audit)
        raise BadValue(_("export writes a folder of files, not standard output; "
                         "for one figure as text: rnntui shot TOPIC/FIGURE -o -"))
    for address in args.only or ():
        not_a_deck(address, f"rnntui export {shlex.quote(args.outdir)} --deck {{deck}}")
    formats = slides.parse_formats(args.format)
    size = parse_size(args.size)
    scale = parse_scale(args.scale, formats)
    check_theme(args.theme)
    deck = None
    if args.deck is not None:
        from rnntui.deck import load

        deck = load(args.deck)
        frames, title = list(deck.frames), deck.heading()
    else:
        frames, title = slides.key_frames(_figures(args.only or ())), _("rnntui: every figure at its key steps")
    if args.only:  # one topic's slides needed a deck of its own (a lecturer's trial)
        frames = _only(frames, args.only, deck is not None)
        if deck is None:
            title = _("rnntui: {what} at their key steps").format(what=commas(a.rstrip("/") for a in args.only))
    with said_if_stopped(lambda: nothing_written(args.outdir)):
        report = slides.export(frames, args.outdir, formats, size, args.theme, scale, args.force, title,
                               progress=sys.stderr.isatty(), deck=deck, batch=True, since=since,
                               only=tuple(args.only or ()))
    print(report.line(Path(args.outdir)), file=sys.stderr)
    if deck is not None and (english := slides.untranslated_line(frames, deck)):
        print(english, file=sys.stderr)
    if unmeasured := slides.unmeasured_line(frames, export=True):
        print(unmeasured, file=sys.stderr)
    return 0


def _figures(addresses) -> set | None:
    """The figures these topics (or figures) name; None for all, or where one names none (`_only` says so)."""
    from rnntui.topics import find

    named = set()
    for address in (a.rstrip("/") for a in addresses):
        try:
            screen, figure = find(address)
        except BadValue:
            return None
        named |= {figure} if "/" in address else set(screen.FIGURES)
    return named or None


def _only(frames: list, addresses: list[str], deck: bool) -> list:
    """The frames of these topics (or figures); BadValue for an unknown one, or one with no frame."""
    from rnntui.topics import find

    kept = []
    for address in addresses:
        address = address.rstrip("/")  # (parallel/ kept its first figure only, a review)
        try:
            screen, figure = find(address)
        except BadValue:  # (a folder here: OUTDIR comes first; it said "unknown topic ''", a review)
            if not address.startswith(("/", ".", "~")):
                raise
            raise BadValue(_("{address} is not a topic (the folder comes first: rnntui export OUTDIR "
                             "[TOPIC[/FIGURE] …])").format(address=address)) from None
        mine = [f for f in frames if f.screen is screen and ("/" not in address or f.figure is figure)]
        if not mine:
            raise BadValue(_("the deck has no frame of {address}").format(address=address) if deck
                           else _("{address} has no frame").format(address=address))
        kept += [f for f in mine if f not in kept]
    return [f for f in frames if f in kept]  # (in the deck's order)


def run_present(argv: list[str]) -> int:
    from rnntui.deck import load

    args = present_parser().parse_args(argv)
    check_theme(args.theme)
    deck = load(args.deck)
    if not 1 <= args.start <= len(deck.frames):
        raise BadValue(_("--start {start}: the deck has frames 1 to {n}").format(start=args.start, n=len(deck.frames)))
    require_terminal("`present`")
    from rnntui.present import PresentApp

    from rnntui.slides import talk_notes

    app = PresentApp(deck, args.theme, args.start - 1)
    status = run_tui(app)
    if not app.is_web:  # (served: said once, as it starts, not again as each tab's app ends)
        for line in talk_notes(deck.frames):
            print(f"rnntui: {line}", file=sys.stderr)
    if status == 0 and (resume := app.resume_line(args.deck)):
        print(f"rnntui: {resume}")
    return status


def run_serve(argv: list[str]) -> int:
    from rnntui import serve

    args = serve_parser().parse_args(argv)
    check_theme(args.theme)
    if not 1 <= args.port <= 65535:
        raise BadValue(_("--port {port}: expected 1 to 65535").format(port=args.port))
    if args.max_sessions < 1:
        raise BadValue(_("--max-sessions {n}: expected at least 1").format(n=args.max_sessions))
    if not 0 < args.idle_minutes < float("inf"):  # ("closes after inf min", a trial)
        raise BadValue(_("--idle-minutes {m:g}: expected a finite number above 0").format(m=args.idle_minutes))
    from rnntui.i18n import language

    app_args, font, title = ["--theme", args.theme, "--lang", language()], None, "rnntui"
    notes = []  # said once textual-serve is found: every argument is checked first (a power user's trial)
    if args.deck is not None:
        if args.address is not None:
            raise BadValue(_("{topic} and --deck {deck}: each tab opens a topic or presents a deck, not both")
                           .format(topic=args.address, deck=args.deck))
        from rnntui.deck import load
        from rnntui.serve_page import cjk_font, lacking
        from rnntui.slides import talk_notes

        deck = load(args.deck)
        notes += talk_notes(deck.frames)  # (once, here: not on each student's first slide)
        source = os.path.abspath(deck.source)  # (the sessions find it whatever their folder)
        title = "rnntui · " + deck.heading()
        app_args = ["present", source, *app_args]
        # a deck's own Chinese too, as shown in this language (its comments, or title_zh under --lang en, made
        # every tab load the whole 1.2 MB font: a review)
        shown = deck.heading() + "".join(f.local("title") + f.local("caption") for f in deck.frames)
        font = cjk_font(shown)
        if missing := lacking(shown):
            notes.append(_("the deck's {chars} are not in rnntui's Chinese font: a browser without a font of its own "
                           "for them draws boxes").format(chars=" ".join(missing)))
    elif args.address:
        from rnntui.topics import find

        not_a_deck(args.address, "rnntui serve --deck {deck}")  # (a shipped deck's name too: "lecture", a review)
        try:
            find(args.address, [])
        except BadValue:
            if os.path.isfile(args.address):  # (a lecturer's trial)
                raise BadValue(_("{address} is not a topic; to present a deck: rnntui serve --deck {address}")
                               .format(address=args.address)) from None
            raise
        app_args.insert(0, args.address)
        title = "rnntui · " + args.address
    serve.check_installed()
    for line in notes:
        print(f"rnntui: {line}", file=sys.stderr)
    serve.serve(app_args, args.host, args.port, args.max_sessions, args.idle_minutes, font, title)
    return 0


def run_app(argv: list[str]) -> int:
    args = main_parser().parse_args(argv)
    if args.list:
        extra = [args.address or "", *(f"--set {s}" for s in args.set or ())] + (
            [f"--step {args.step}"] if args.step is not None else [])
        if any(extra):  # (they were ignored: rc 0, a trial)
            raise BadValue(_("--list takes nothing else (got {extra})").format(extra=" ".join(e for e in extra if e)))
        check_theme(args.theme)  # (no use here, but a bad one is refused as everywhere: rc 0, an audit)
        sys.stdout.write(list_text())
        return 0
    # No garbage collection while Textual and the topics are imported (on again once they are frozen:
    # open_app): ~55 young collections, 7-8 ms of a ~220 ms start, scanning objects that live as long
    # as the app
    gc.disable()
    try:
        return open_app(args)
    finally:
        gc.enable()


def open_app(args) -> int:
    from rnntui.topics import IDS, build_state, find

    if args.address is not None and not args.address.strip():
        raise BadValue(_("an empty topic: name one (see rnntui --list), or give none for the first"))
    not_a_deck(args.address, "rnntui present {deck}")
    check_theme(args.theme)
    screen, figure = find(args.address or IDS[0], args.set)
    state = build_state(figure, args.set, args.step) if (args.set or args.step is not None) else None
    require_terminal()
    from rnntui.app import RnnApp

    # Everything imported so far (Textual, Rich, rnntui) lives as long as the app: freezing it keeps
    # the collector from scanning it all again in the full collection that the app's first frame
    # triggers (~20 ms of a ~450 ms start). Collections still run; they look at newer objects only.
    gc.freeze()
    gc.enable()
    return run_tui(RnnApp(screen.TOPIC_ID, figure.id if (args.address and "/" in args.address) or state else None,
                          state, args.theme))


def encodes(text: str, stream) -> bool:
    """Whether `stream` can write `text` as it is (not as backslash escapes)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


class _Closed:
    """Standard output or error when it was closed: writing to it is an OSError (EBADF), said in one line
    (print's file=None is standard output: an error line went into `shot -o - 2>&-`'s text)."""

    encoding = "utf-8"

    def __init__(self, name: str) -> None:
        self.name = name

    def isatty(self) -> bool:
        return False

    def write(self, _text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF), self.name)

    def flush(self) -> None:
        pass


def _say(line: str) -> None:
    """A line on standard error; when that is full or closed, nothing: exit status 2 says it, not 1 from a
    second failure in the handler (a CLI audit)."""
    try:
        print(line, file=sys.stderr)
        sys.stderr.flush()
    except OSError:
        sys.stderr = _Closed("standard error")  # (not flushed again at exit, which made it 120)


def here() -> bool:
    """Whether the current folder is still there."""
    try:
        os.getcwd()
    except OSError:
        return False
    return True


def quiet_stdout() -> None:
    """Standard output to the null device: Python's flush at exit found the pipe closed again and said so."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # (no file descriptor: nothing flushes there either)
        pass


def main(argv: list[str] | None = None) -> int:
    from rnntui.i18n import default_language, set_language, take_lang

    argv = sys.argv[1:] if argv is None else argv
    if sys.stdout is None:  # closed (`>&-`): a write says so in one line, not AttributeError's traceback
        sys.stdout = _Closed("standard output")
    if sys.stderr is None:
        sys.stderr = _Closed("standard error")
    if os.environ.get("NO_COLOR") == "":  # set but empty is not set (no-color.org); Textual greyed the app for
        del os.environ["NO_COLOR"]  # `export NO_COLOR=` (a lecturer's trial)
    gc.disable()  # as the app's imports are (run_app): the catalogue and the command line are read without
    # collections too (a larger catalogue tipped one in, 1 of the ~55 young collections the start avoids)
    try:
        with suppress(BadValue):  # the locale's language first: a refused --lang said so in English (a trial)
            set_language(default_language())
        argv, lang = take_lang(argv)
        set_language(default_language() if lang is None else lang)  # (--lang '' was taken as no --lang)
        argparse._ = _  # argparse's words from our catalogue (English: unchanged)
        command = argv[0] if argv else ""
        if command in ("shot", "export", "present", "serve", "train"):
            gc.enable()  # (their own schedules: export's batch, a lab's training)
        if command == "shot":
            with stopped_by_signals():
                return run_shot(argv[1:])
        if command == "export":
            return run_export(argv[1:])
        if command == "present":
            return run_present(argv[1:])
        if command == "serve":
            return run_serve(argv[1:])
        if command == "train":
            from rnntui.train_cli import run_train

            with stopped_by_signals():
                return run_train(argv[1:])
        return run_app(argv)
    except BadValue as e:  # one line, whatever was typed (a newline in a --set value made three)
        said = one_line(f"rnntui: {e}")
        if isinstance(e, Marked) and not encodes(said, sys.stderr):  # (a Latin-1 terminal: English, not \u7ec8…)
            said = one_line(f"rnntui: {e.english()}")
        _say(said)
        return 2
    except BrokenPipeError:  # the reader stopped (| head): quiet, as SIGPIPE ends a shell's tools (it said
        quiet_stdout()  # "rnntui: Broken pipe", exit 2, after `train … | head -1` had saved: a code review)
        return 128 + 13  # (SIGPIPE)
    except OSError as e:
        where = getattr(e, "filename", "") or ""
        if not where and e.errno == errno.ENOENT and not here():  # ("no such file or folder" named none: a review)
            _say("rnntui: " + _("the current folder is gone (removed after the shell entered it): cd to one that is"))
            return 2
        _say(f"rnntui: {spaced(colon(reason(e)))}{where}" if where else f"rnntui: {reason(e)}")
        return 2
    except UnicodeEncodeError as e:  # standard output in ASCII or Latin-1 (PYTHONIOENCODING): ours is Unicode
        words = _("the output takes {encoding} only; set PYTHONIOENCODING=utf-8").format(encoding=e.encoding)
        _say(f"rnntui: {words}")
        return 2
    except KeyboardInterrupt as e:  # (Stopped: SIGTERM 143, SIGHUP 129)
        return 128 + getattr(e, "signum", 2)
    finally:
        gc.enable()
