"""Slides: frames (a figure in one state), every figure's key frames, and `rnntui export`.

A frame is what a slide shows. `key_frames()` walks the registry: every figure of every topic at
each of its key steps (`Figure.slide_steps`). A deck (rnntui/deck.py) lists frames by hand.
`export` renders frames headless, in one app, into numbered files and an index.md.
"""
from __future__ import annotations

import asyncio
import os
import re
import time
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from rnntui.figure import Figure
from rnntui.files import check_no_file_in_the_way, make_folder
from rnntui.i18n import _, aside, language, ngettext
from rnntui.render import SIZE
from rnntui.state import BadValue, FigureState
from rnntui.terminal import Stopped, stop_between_frames, stopped_by_signals

EXPORT_FORMATS = ("svg", "png", "txt", "json")
# threads drawing PNGs beside the one rendering frames: deflating lets the others run, and one drawing
# thread was the export's bottleneck (2 cores: 149 frames in 9.6 s instead of 12.1)
PNG_THREADS = min(2, os.cpu_count() or 1)
# export's own file names (`03-recurrence-track-t2.svg`)
NUMBERED = re.compile(r"\d{2,}-[a-z][a-z0-9_]*-[a-z][a-z0-9_]*-[^/\\]*\.(?:" + "|".join(EXPORT_FORMATS) + r")")


def chinese(text: str) -> bool:
    """Whether `text` holds a Chinese character: a deck's `title` written in Chinese is not English only (it
    was said to be, on the talk's first slide, a power user's trial)."""
    from rnntui.glyphs import is_cjk

    return any(map(is_cjk, text))


@dataclass(frozen=True)
class Frame:
    screen: type  # the TopicScreen class
    figure: Figure
    state: FigureState
    title: str = ""  # a deck's words for this slide; empty: the figure's title
    caption: str = ""  # empty: the figure's prose
    translated: tuple[tuple[str, str], ...] = ()  # a deck's ("title_zh", text), ("caption_zh", text), …
    axis_set: bool = False  # a deck's `set` gave the axis its value (its shot line says --set, not --step)

    def local(self, field: str) -> str:
        """A deck's `title` or `caption` in the current language (`title_zh` …), else its English one."""
        lang = language()
        if lang != "en":
            found = dict(self.translated).get(f"{field}_{lang}")
            if found:
                return found
        return getattr(self, field)

    def untranslated(self) -> tuple[str, ...]:
        """The deck's words for this slide (`title`, `caption`) given in English but not in the current
        language, as the keys that would give them (`caption_zh`): they are shown in English."""
        lang = language()
        given = dict(self.translated)
        return () if lang == "en" else tuple(
            f"{field}_{lang}" for field in ("title", "caption") if getattr(self, field)
            and not given.get(f"{field}_{lang}") and not (lang == "zh" and chinese(getattr(self, field))))

    @property
    def address(self) -> str:
        return f"{self.screen.TOPIC_ID}/{self.figure.id}"

    @property
    def axis(self) -> tuple[str, str]:
        """(label, value) of the stepped axis, e.g. ("t", "3")."""
        p = self.state.param(self.state.AXIS)
        return p.said, p.show(getattr(self.state, p.name))

    def heading(self) -> str:
        return self.local("title") or f"{self.named()} · {self.setting()}"

    def named(self) -> str:
        """A deck's title for the slide, else the figure's title and refs (a run of its steps in index.md)."""
        return self.local("title") or f"{_(self.figure.title)} · {self.figure.refs}"

    def setting(self) -> str:
        """The values set away from the figure's defaults, then the axis: "cell = lstm-bf2 · step = 1500"
        (two of the lecture's slides were both "Copy the first token · E2+E3 · step = 1500")."""
        changed = self.changed()
        shown = [(p.said or p.name, p.show(getattr(self.state, p.name))) for p in self.state.params()
                 if p.name in changed]
        return " · ".join(f"{label} = {value}" for label, value in [*shown, self.axis])

    def words(self) -> str:
        return self.local("caption") or _(self.figure.prose)

    def stem(self, number: int, digits: int = 2) -> str:
        """`10-gradients-product-W_h1.6-relu-hop199`: its number, then `named_for_files()`."""
        return f"{number:0{digits}d}-{self.named_for_files()}"

    def named_for_files(self) -> str:
        """`gradients-product-W_h1.6-relu-hop199`: topic, figure, the values set away from the figure's defaults
        (a word alone, a number after its name), then the axis and its value (slides 09 and 10, tanh and ReLU,
        were both `gradients-product-hop199`, a lecturer's trial). Export's files and ctrl+s's shots."""
        parts = [self._named(name, value) for name, value in self.changed().items()]
        parts.append(self._named(self.state.AXIS, getattr(self.state, self.state.AXIS), word=False))
        return "-".join([self.screen.TOPIC_ID, self.figure.id, *parts])

    def _named(self, name: str, value, word: bool = True) -> str:
        p = self.state.param(name)
        if p.names and value in range(len(p.names)):  # its name: masks' family2 was encoder-decoder (a lecturer's
            return re.sub(r"[^A-Za-z0-9]+", "-", p.names[value]).strip("-").lower()  # trial)
        value = f"{value:g}" if isinstance(value, float) else str(value)
        if word and p.kind == "choice" and not value[:1].isdigit():
            value = re.sub(r"[^A-Za-z0-9_.-]+", "", value)  # ("relu", "lstm-bf2"; "pe_on": "on" alone said
            return f"{p.name}_{value}" if value in ("on", "off") else value  # not what, a review)
        tag = "_".join(re.sub(r"[^A-Za-z0-9_]+", " ", p.label).split()) or p.name  # ("window_k4", not "windowk4")
        return f"{tag}{value.replace('-', '_minus', 1) if value.startswith('-') else value}"  # (b_f-1.5 read as a
        # separator and 1.5: b_f_minus1.5, a review)

    def changed(self) -> dict:
        """The parameters that differ from the figure's defaults (the axis apart)."""
        default = self.figure.state_type()
        return {p.name: getattr(self.state, p.name) for p in self.state.params()
                if p.name != self.state.AXIS and getattr(self.state, p.name) != getattr(default, p.name)}

    def args(self) -> str:
        """The frame as the command line names it: `recurrence/track --set w_h=1.4 --step 7`."""
        sets = "".join(f" --set {k}={v}" for k, v in self.changed().items())
        step = exact(getattr(self.state, self.state.AXIS))  # as --step reads it, not as shown ("131,072" was refused)
        # (a deck's set = { threshold = 10 } read as wrong copied as --step 10, a lecturer's trial)
        axis = f" --set {self.state.AXIS}={step}" if self.axis_set else f" --step {step}"
        return f"{self.address}{sets}{axis}"

    def toml(self) -> str:
        """The frame as a deck writes it (`[[frame]]`, its figure, set and step), to paste into one."""
        def value(v) -> str:
            return f'"{v}"' if isinstance(v, str) else exact(v)

        sets = ", ".join(f"{k} = {value(v)}" for k, v in self.changed().items())
        return "\n".join(['[[frame]]', f'figure = "{self.address}"', *([f"set = {{ {sets} }}"] if sets else []),
                          f"step = {value(getattr(self.state, self.state.AXIS))}"])

    def shot_command(self, out: str = "frame.svg", size=None, theme: str = "dark", lang: str | None = None,
                     scale: float = 2.0) -> str:
        """The `rnntui shot` line that redraws this frame into `out`, in `lang` when given (a shell's
        locale picks the language otherwise: an export's lines say theirs), a PNG at `scale` (--scale 1's
        frames were redrawn twice their size, a power user's trial)."""
        extra = (f" --size {size[0]}x{size[1]}" if size else "") + (f" --theme {theme}" if theme != "dark" else "")
        extra += f" --lang {lang}" if lang else ""
        extra += f" --scale {exact(scale)}" if out.endswith(".png") and scale != 2.0 else ""
        return f"rnntui shot {self.args()}{extra} -o {out}"


def exact(v) -> str:
    """A value exactly, as a command line or a deck takes it: "2" not "2.0", 0.1 not 0.10 (a float's shortest repr)."""
    return repr(float(v)).removesuffix(".0") if isinstance(v, float) else str(v)


def key_frames(figures=None) -> list[Frame]:
    """Every registered figure (or those in `figures`) at each of its key steps, in lecture order. (The others'
    steps are not asked: memory/copy's read its cache, and a corrupt one refused `export DIR recurrence`.)"""
    from rnntui.topics import build_state, topics

    return [Frame(screen, figure, build_state(figure, (), step))
            for screen in topics() for figure in screen.FIGURES if figures is None or figure in figures
            for step in figure.slide_steps()]


def parse_formats(text: str) -> tuple[str, ...]:
    wanted = tuple(dict.fromkeys(f.strip().lower().lstrip(".") for f in text.split(",") if f.strip()))
    bad = [f for f in wanted if f not in EXPORT_FORMATS]
    if bad or not wanted:
        raise BadValue(_("--format {text!r}: choose from {formats} (comma separated)").format(
            text=text, formats=",".join(EXPORT_FORMATS)))
    return wanted


def plan(frames: list[Frame], deck=None) -> list[tuple[Frame, str]]:
    """(frame, file stem) for every frame, numbered from 1; a deck's by their places in it, as the slide's
    foot says them (`--deck lecture memory` wrote 01… under feet saying 39/52, a lecturer's trial)."""
    every = frames if deck is None else deck.frames
    digits = max(2, len(str(len(every))))
    return [(frame, frame.stem(place(every, frame), digits)) for frame in frames]


def place(frames, frame: Frame) -> int:
    """Where `frame` is among `frames`, from 1 (by identity: a deck may show one state twice)."""
    return next(k for k, f in enumerate(frames, 1) if f is frame)


def check_readable(states, since: int | None = None) -> None:
    """Every state's data read (and cached for drawing) before anything is written, or BadValue in one
    line: a damaged shipped file (it drew "unreadable" slides, or a traceback), or a corrupt cache set aside
    since the command began (`since`: records.corrupt_seen() then) rather than its note drawn into the
    picture: the next run draws without one set aside; one that could not be (or a folder in its place),
    once it is removed; one the user may not read, once it is readable or removed."""
    from rnntui.engine import records

    seen = records.corrupt_seen() if since is None else since
    for state in states:
        state.readings()
    if len(records.CORRUPT) > seen:
        report, moved = records.CORRUPT[seen]
        advice = (_("{report}; nothing written: run it again to draw without it") if moved else
                  _("{report}; nothing written: make it readable or remove it, then run it again") if moved is None
                  else _("{report}; nothing written: remove it, then run it again"))
        raise BadValue(advice.format(report=report))


def untranslated_line(frames: list[Frame], deck=None) -> str:
    """One line naming the slides whose deck words are in English only, in a language that is not
    (frames without caption_zh showed English among Chinese, and nothing said so: a lecturer's trial);
    numbered by their places in `deck` when given."""
    every = frames if deck is None else deck.frames
    missing: dict[tuple, list[int]] = {}  # the words missing → the frames, as "1–9 (title_zh, caption_zh)"
    for frame in frames:
        if keys := frame.untranslated():
            missing.setdefault(tuple(keys), []).append(place(every, frame))
    if not missing:
        return ""
    # (all of them: "9 (title_zh, caption_zh); …" never named the tenth, in the shell either, a lecturer's trial)
    shown = "; ".join(f"{numbered(places)} ({', '.join(keys)})" for keys, places in missing.items())
    return ngettext("frame {frames}: the deck gives these words in English only",
                    "frames {frames}: the deck gives these words in English only",
                    sum(map(len, missing.values()))).format(frames=shown)


def unmeasured_line(frames: list[Frame], export: bool = False, short: bool = False) -> str:
    """One line naming the timing frames whose lab has not run on this machine, "" if none (the lecture's
    timing slide went to class as a table of "—", unsaid: a lecturer's trial); numbered from 1 in `frames`.
    `short`: for a talk's foot (at 80x24 the long one lost its command to the "…")."""
    places = [k for k, f in enumerate(frames, 1) if f.figure.id == "timing" and
              getattr(f.state.readings(), "status", None) == "unmeasured"]
    if not places:
        return ""
    if short:
        line = ngettext("slide {frames}: no timing yet; rnntui train timing",
                        "slides {frames}: no timing yet; rnntui train timing", len(places))
    elif export:
        line = ngettext("frame {frames}: not measured on this machine yet (a table of —); rnntui train timing "
                        "measures it (~10 s), then export again",
                        "frames {frames}: not measured on this machine yet (a table of —); rnntui train timing "
                        "measures it (~10 s), then export again", len(places))
    else:
        line = ngettext("slide {frames}: not measured on this machine yet (a table of —); rnntui train timing "
                        "measures it (~10 s)",
                        "slides {frames}: not measured on this machine yet (a table of —); rnntui train timing "
                        "measures it (~10 s)", len(places))
    return line.format(frames=numbered(places))


def talk_notes(frames: list[Frame], short: bool = False) -> list[str]:
    """What a talk of `frames` says as it starts (and `present` again as it ends, `serve --deck` once): its
    unmeasured timing slides and its English-only words, those there are; `short`, for a talk's foot."""
    return [n for n in (unmeasured_line(frames, short=short), untranslated_line(frames)) if n]


def numbered(places: list[int]) -> str:
    """Ascending numbers with their runs of three or more as ranges: 1–3, 5, 7, 8."""
    out = []
    for _step, run in groupby(enumerate(places), lambda pair: pair[1] - pair[0]):
        run = [n for _i, n in run]
        out.append(f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
    return ", ".join(out)


def targets(stems: list[str], outdir: Path, formats: tuple[str, ...]) -> list[Path]:
    return [outdir / f"{stem}.{fmt}" for stem in stems for fmt in formats] + [outdir / "index.md"]


def check_outdir(outdir: Path, paths: list[Path], force: bool) -> None:
    """Refuse (one line) to write into a file, or over existing files without --force."""
    if outdir.exists() and not outdir.is_dir():
        raise BadValue(_("{path} is a file, not a folder").format(path=outdir))
    check_no_file_in_the_way(outdir)
    for path in paths:  # (with --force one was put aside and reported as "a part of the path is a file")
        if path.is_dir() and not path.is_symlink():
            raise BadValue(_("cannot write {path}: it is a folder").format(path=path))
    existing = [p for p in paths if os.path.lexists(p)]  # (a dangling link too: it would be replaced)
    if existing and not force:
        if len(existing) > 1:
            line = _("{path} exists and {n} more; add --force to replace them").format(
                path=existing[0], n=len(existing) - 1)
        else:
            line = _("{path} exists; add --force to replace it").format(path=existing[0])
        gone = len(stale(outdir, paths, listed(outdir)))  # (it said nothing of the 149 slides --force removed)
        if gone:
            line += aside(ngettext("(it also removes {n} file an earlier export listed that this one does not write)",
                                   "(it also removes {n} files an earlier export listed that this one does not write)",
                                   gone).format(n=gone))
        raise BadValue(line)


def index_md(title: str, planned: list[tuple[Frame, str]], formats: tuple[str, ...], size, theme: str,
             present: bool = False, scale: float = 2.0) -> str:
    """One section per run of frames that show one figure with the same words: its heading and caption
    once, then each frame's step, picture, files and `rnntui shot` line. (Each frame had its own
    section, and recurrence/track's caption was printed eight times over.)"""
    picture = next((f for f in ("png", "svg") if f in formats), None)
    n = len(planned)  # ("1 frames", a helper's test)
    about = (ngettext("{n} frame, rendered by rnntui at {size} with the {theme} theme, drawn as `rnntui present` "
                      "shows it. Its `rnntui shot` line draws its state again in the app.",
                      "{n} frames, rendered by rnntui at {size} with the {theme} theme, drawn as `rnntui present` "
                      "shows them. Each frame's `rnntui shot` line draws its state again in the app.", n) if present
             else ngettext("{n} frame, rendered by rnntui at {size} with the {theme} theme. Its `rnntui shot` line "
                           "draws it again. The lecture's slides, as `rnntui present lecture` shows them, are "
                           "`rnntui export OUTDIR --deck lecture`.",
                           "{n} frames, rendered by rnntui at {size} with the {theme} theme. Each frame's `rnntui "
                           "shot` line draws it again. The lecture's slides, as `rnntui present lecture` shows them, "
                           "are `rnntui export OUTDIR --deck lecture`.", n))
    lines = [f"# {title}", "", about.format(n=n, size=f"{size[0]}x{size[1]}", theme=theme), ""]
    for run in runs(planned):
        first = run[0][0]
        grouped = len(run) > 1 or not first.local("title")  # (a figure's one frame too: every figure's
        if grouped:  # section read alike; a slide with a title of its own is its own section)
            lines += [f"## {first.named()}", "", first.words(), ""]
        for frame, stem in run:
            number = stem.split("-", 1)[0]
            if grouped:
                lines += [f"### {number} · {frame.setting()}", ""]
            else:
                lines += [f"## {number} · {frame.heading()}", ""]
            if picture:
                lines += [f"![{frame.address}]({stem}.{picture})", ""]
            if not grouped:
                lines += [frame.words(), ""]
            files = " · ".join(f"[{fmt}]({stem}.{fmt})" for fmt in formats)
            again = frame.shot_command(f"{stem}{'-app' if present else ''}.{formats[0]}", size, theme, language(),
                                       scale)
            lines += [f"{frame.address} · {files} · `{again}`", ""]
    return "\n".join(lines)


def runs(planned: list[tuple[Frame, str]]) -> list[list[tuple[Frame, str]]]:
    """Consecutive frames of one figure with the same title and words, together."""
    return [list(run) for _key, run in groupby(planned, lambda fs: (fs[0].address, fs[0].local("title"), fs[0].words()))]


@dataclass
class Report:
    frames: int
    files: int
    seconds: float
    render_seconds: float
    removed: int = 0  # files an earlier export listed that --force removed

    def line(self, outdir: Path) -> str:
        rate = self.frames / self.render_seconds if self.render_seconds else float("inf")
        files = ngettext("{n} file", "{n} files", self.files).format(n=self.files)  # ("wrote 1 files (1 frames)")
        frames = ngettext("{n} frame", "{n} frames", self.frames).format(n=self.frames)
        # (the rate is the drawing's: "52 frames … in 2.4 s; 48.0 frames/s" read as a sum that did not add up)
        line = _("wrote {files} ({frames}) and index.md to {outdir} in {seconds} s, {drawing} s of it drawing "
                 "({rate} frames/s)").format(files=files, frames=frames, outdir=outdir, seconds=f"{self.seconds:.1f}",
                                             drawing=f"{self.render_seconds:.1f}", rate=f"{rate:.1f}")
        if self.removed:
            line += ngettext("; removed {n} file an earlier export listed",
                             "; removed {n} files an earlier export listed", self.removed).format(n=self.removed)
        return line


def listed(outdir: Path) -> set[str]:
    """The files an earlier export wrote, as its index.md lists them on each frame's files line
    (`topic/figure · [svg](03-….svg) · [txt](03-….txt) · `rnntui shot …``); none without an index.md.
    The only files --force may remove: a link in a caption, or in an index.md of the user's own, is not
    one of them."""
    try:
        text = (outdir / "index.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    names = set()
    for line in text.splitlines():
        if re.match(r"[a-z][a-z0-9_]*/[a-z][a-z0-9_]* · \[", line):  # a files line
            names |= {name for fmt, name in re.findall(r"\[(\w+)\]\(([^()/\\]+)\)", line)
                      if name.endswith(f".{fmt}") and NUMBERED.fullmatch(name)}
    return names


def within(name: str, addresses: tuple[str, ...]) -> bool:
    """Whether an export's file (`09-recurrence-tanh-z2.svg`) shows one of these topics or figures."""
    topic, figure = name.split("-")[1:3]
    return any(a.rstrip("/") in (topic, f"{topic}/{figure}") for a in addresses)


def stale(outdir: Path, keep: list[Path], earlier: set[str]) -> list[Path]:
    """The files of an earlier export (`earlier`: what its index.md listed) that this one does not write."""
    keep_names = {p.name for p in keep}
    return sorted(outdir / name for name in earlier - keep_names if (outdir / name).is_file())


def export(frames: list[Frame], outdir: str | Path, formats=("svg",), size=SIZE, theme: str = "dark",
           scale: float = 2.0, force: bool = False, title: str = "rnntui slides", progress: bool = True,
           deck=None, batch: bool = False, since: int | None = None, only: tuple[str, ...] = ()) -> Report:
    """Render frames into OUTDIR as numbered files plus index.md. Checks everything first. With a deck,
    its frames are drawn as `rnntui present` shows them (no header or footer). --force also removes the
    files an earlier export listed in its index.md that this one does not write (`listed`). `batch`: the
    process does nothing else (`rnntui export`; see Session). `only`: the topics (or figures) the frames were
    picked by; with them --force removes nothing an earlier export wrote for others (refused, said)."""
    from rnntui.files import Staged

    outdir = Path(outdir)
    if not frames:
        raise BadValue(_("nothing to export: no frames"))
    if "png" in formats:
        from rnntui.png import check_pixels, check_route

        check_route()
        check_pixels(size, scale)
    check_readable((frame.state for frame in frames), since)
    planned = plan(frames, deck)
    paths = targets([stem for _, stem in planned], outdir, formats)
    earlier = listed(outdir)  # (read before this export's index.md replaces it)
    gone = [p for p in stale(outdir, paths, earlier) if only and not within(p.name, only)]
    if gone:  # ("refresh one topic" removed the other 151 files of a handout the night before a lecture: a
        raise BadValue(ngettext(  # lecturer's trial; its own slides, renumbered or in a format dropped, may go)
            # (before --force's own line, which said "add --force", and then this: a newcomer's trial)
            "an earlier export here wrote {n} file for other slides, which {only} with --force would remove; export "
            "{only} into a folder of its own, or remove that file first",
            "an earlier export here wrote {n} files for other slides, which {only} with --force would remove; export "
            "{only} into a folder of its own, or remove those files first", len(gone)).format(
                only=" ".join(only), n=len(gone)))
    check_outdir(outdir, paths, force)
    made = [p for p in (outdir, *outdir.parents) if not p.exists()]  # the folders this export makes, inner first
    make_folder(outdir)
    started = time.perf_counter()
    staged = Staged()  # every file, index.md last, put in place once all are written
    try:
        with stop_between_frames() as asked:
            render_seconds = asyncio.run(_render_all(planned, outdir, formats, size, theme, scale, progress,
                                                     staged, deck, batch, asked))
            if asked:
                raise Stopped(asked[0])
        staged.write(str(outdir / "index.md"), index_md(title, planned, formats, size, theme, deck is not None, scale))
        if not force:  # again: another export into OUTDIR since the check (two at once both wrote, a CLI trial)
            try:
                check_outdir(outdir, paths, force)
            except BadValue as e:
                raise BadValue(_("{line} (made while this export drew; it wrote nothing)").format(line=e)) from None
        with stopped_by_signals():  # (SIGTERM or SIGHUP here killed it mid-swap, new files beside old: a review)
            staged.commit()  # all back as they were, as ctrl+c puts them
    except BaseException:
        with stop_between_frames():  # (a second ctrl+c in the clean-up left its temporary files, a review)
            staged.discard()
            for folder in made:  # (a frame it could not draw left the folders it made empty)
                if any(folder.iterdir()):
                    break
                folder.rmdir()
        raise
    removed = stale(outdir, paths, earlier) if force else []
    for path in removed:
        path.unlink(missing_ok=True)
    for path in outdir.glob(".rnntui-*.tmp") if force else ():  # an export killed outright left its files half
        path.unlink(missing_ok=True)  # written (SIGKILL: no handler runs); --force replaces the folder's export
    return Report(len(frames), len(paths) - 1, time.perf_counter() - started, render_seconds, len(removed))


async def _render_all(planned, outdir: Path, formats, size, theme, scale, progress, staged, deck=None,
                      batch=False, asked=()) -> float:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn("[bold]export[/]"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   TextColumn("{task.description}"), console=Console(stderr=True), transient=True,
                   disable=not progress)
    with bar, ThreadPoolExecutor(max_workers=PNG_THREADS) as pool:  # PNGs drawn while frames render
        try:
            return await _render_into(pool, bar, planned, outdir, formats, size, theme, scale, staged, deck, batch,
                                      asked)
        except BaseException:  # (stopped or failed: it drew every PNG queued before letting go)
            pool.shutdown(cancel_futures=True)  # the PNGs queued are not drawn; those being drawn finish
            raise


async def _render_into(pool, bar, planned, outdir: Path, formats, size, theme, scale, staged, deck, batch,
                       asked=()) -> float:
    """Each frame rendered and its files written (`staged`, files.Staged), its PNG drawn in `pool`; the seconds
    spent rendering. A signal in `asked` (stop_between_frames) stops it before the next frame, or while the
    last PNGs are drawn (it waited for them all: 4.5 s, a trial)."""
    from rnntui.glyphs import check as check_glyphs
    from rnntui.png import draw
    from rnntui.render import Session

    text_formats = tuple(f for f in formats if f != "png")
    spent = 0.0
    task = bar.add_task("", total=len(planned))
    pending = []
    async with Session(size, theme, scale, deck=deck, batch=batch) as session:
        for frame, stem in planned:
            if asked:
                raise Stopped(asked[0])
            bar.update(task, description=f"{frame.address} {'='.join(frame.axis)}")
            t0 = time.perf_counter()
            try:
                if deck is not None:  # (its place in the deck: with TOPIC filters, the nth planned drew its nth)
                    texts = await session.slide(place(deck.frames, frame) - 1, text_formats)
                else:
                    texts = await session.frame(frame.screen, frame.figure, frame.state, text_formats)
                grid = session.grid(f"rnntui {frame.address}") if "png" in formats else None
                if grid is not None:
                    check_glyphs(ch for row in grid.rows for ch, _look in row)  # before any thread draws it
            except BadValue as e:  # (a deck's ✅ stopped it naming no slide of fifty: a power user's trial)
                if deck is None:
                    raise
                raise BadValue(_("deck {source}, frame {n}: {error}").format(
                    source=deck.source, n=place(deck.frames, frame), error=e)) from None
            spent += time.perf_counter() - t0
            for fmt in text_formats:
                staged.write(str(outdir / f"{stem}.{fmt}"), texts[fmt])
            if grid is not None:  # (not drawn once the export is given up)
                pending.append(pool.submit(lambda g=grid, p=outdir / f"{stem}.png":
                                           staged.closed or staged.write(str(p), draw(g, scale))))
            for done in [p for p in pending if p.done()]:
                done.result()  # a failed conversion stops the export here
                pending.remove(done)
            bar.advance(task)
    while pending:
        if asked:
            raise Stopped(asked[0])
        done, waiting = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
        for p in done:
            p.result()  # re-raises a conversion error
        pending = list(waiting)
    return spent
