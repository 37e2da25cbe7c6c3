"""Writing output files so that a failure leaves any old file whole; reading small ones no further than they
can be."""
from __future__ import annotations

import argparse
import errno
import itertools
import os
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

from rnntui.i18n import N_, _
from rnntui.state import BadValue, Said


def read_head(path, most: int) -> bytes:
    """A file's first `most` + 1 bytes: a caller refuses it when it got more than `most` (a deck, a cache or
    a keymap linked to /dev/zero was read whole: MemoryError, an audit)."""
    with open(path, "rb") as file:
        return file.read(most + 1)


def read_small_text(path, most: int, too_large: str) -> str:
    """A UTF-8 file of `most` bytes at most, with its line ends as `Path.read_text` gives them (a lone CR
    too), less a byte-order mark (Notepad's: "not valid TOML … line 1, column 1", a power user's trial);
    larger, OSError(`too_large`)."""
    raw = read_head(path, most)
    if len(raw) > most:
        raise OSError(too_large)
    return raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")


REASONS = {errno.ENOENT: N_("no such file or folder"), errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
           errno.EACCES: N_("permission denied"), errno.EPERM: N_("permission denied"),
           errno.EROFS: N_("the file system is read-only"), errno.ENOSPC: N_("no space left on the device"),
           errno.EISDIR: N_("it is a folder"), errno.ELOOP: N_("its symbolic links go round in a loop")}


SERVED_TAB = "RNNTUI_SERVED_TAB"  # set (to 1) for a browser tab's app: its cache is the tab's own, gone with the tab


def home_short(path: Path) -> str:
    """A path as short as a shell takes it: ~/… under the home folder."""
    home = Path(os.path.expanduser("~"))  # ("~" itself where there is no home: nothing is under it)
    return f"~/{path.relative_to(home)}" if home.is_absolute() and path.is_relative_to(home) else str(path)


def reason(e: OSError) -> str:
    """Why a file could not be written or read, in the app's language (the system's words, in English
    whatever the language, were shown as they came: 无法写入 /proc/x.svg：No such file or directory)."""
    return str(reason_kept(e))


def read_reason(e: OSError | UnicodeDecodeError) -> str:
    """Why a text file could not be read, in the app's language ("Is a directory", "'utf-8' codec can't
    decode byte 0xff…" were shown in Chinese lines: a code review)."""
    return _("not UTF-8 text") if isinstance(e, UnicodeDecodeError) else reason(e)


def reason_kept(e: OSError) -> Said | str:
    """reason(e) for a line that is kept: said in the language of the moment it is shown."""
    known = REASONS.get(e.errno)
    return Said(known) if known else str(e.strerror or e)


def cannot_write(path, e: OSError) -> BadValue:
    """The one line for a file or folder that could not be written. A new name refused in a folder that
    is there (/proc) says so, not "no such file"."""
    if e.errno == errno.ENOENT and e.filename and Path(os.fsdecode(e.filename)).parent.is_dir():
        why = _("its folder takes no new files")
    else:
        why = reason(e)
    return BadValue(_("cannot write {path}: {reason}").format(path=path, reason=why))


def make_folder(folder: Path, named=None) -> None:
    """The folder and its parents made, or BadValue (one line naming `named`, default the folder, and the
    file standing where a folder goes: "…/memory.json: File exists" named neither, a student's trial)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        target = folder if named is None else named
        check_no_file_in_the_way(folder / "x", named=target)  # (the folder itself, or one above it)
        raise cannot_write(target, e) from None


def file_in_the_way(path: str | Path) -> Path | None:
    """The file standing where `path` needs a folder (`notes.txt/x.svg`), if there is one."""
    for folder in Path(path).absolute().parents:
        if folder.exists() or folder.is_symlink():  # (a link to nothing is in the way too, a review)
            return None if folder.is_dir() else folder
    return None


def check_no_file_in_the_way(path: str | Path, named=None) -> None:
    """BadValue (one line, naming `named`, default `path`) naming the file that stands where `path` needs a
    folder."""
    if blocking := file_in_the_way(path):
        raise BadValue(_("cannot write {path}: {file} is a file, not a folder").format(path=named or path,
                                                                                        file=blocking))


def umask() -> int:
    """The process's umask: Linux says it in /proc; elsewhere it is set and at once set back (a file
    another thread creates in that instant would get 022)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode(path: str) -> int:
    """The mode a file written at `path` gets: the old file's, else what `open` would give a new one."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~umask()


def followed(path: str) -> str:
    """The file a write to `path` replaces: a symbolic link's target (the link stays a link; it was
    replaced by a file, and a link to another disk could not be renamed over at all). BadValue for a
    loop of links (it was a traceback)."""
    if not os.path.islink(path):
        return path
    try:
        os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise cannot_write(path, e) from None  # (a link to nothing is fine: its target is made)
    return os.path.realpath(path)


def write_atomic(path: str, text: str | bytes, replace: bool = True) -> None:
    """Write beside the target, then rename: a failure leaves any old file whole. Not `replace`: never over a
    file, FileExistsError where one is there (a file made at a --out path while training was replaced, a
    CLI trial)."""
    target = followed(path)
    tmp = write_beside(path, text)
    try:
        if replace:
            os.replace(tmp, target)
        else:
            _link_new(tmp, target)
    except FileExistsError:
        Path(tmp).unlink(missing_ok=True)
        raise
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise cannot_write(path, e) from None


def written_anew(path: Path, write, first: int = 1, most: int | None = None) -> Path | None:
    """`write(path, replace=False)` at `path`, or where a file is there at NAME-first, NAME-(first+1), … (never
    over a file, even one that came after a look: the write itself refuses); where it went, None past `most`
    names."""
    for n in itertools.islice(itertools.count(first - 1), most):
        there = path if n == first - 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
        try:
            write(there, False)
        except FileExistsError:
            continue
        return there
    return None


def _link_new(tmp: str, target: str) -> None:
    """`tmp` named `target` where nothing is: a hard link fails at once where a file is; without hard links
    (FAT, some network disks), checked and then renamed."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), target) from None
        os.replace(tmp, target)
        return
    Path(tmp).unlink(missing_ok=True)


@contextmanager
def locked(folder: Path):
    """The folder locked (flock) while a read-merge-write runs in it: two labs that finished together kept
    one run of the two in memory.json (a teaching-server trial). No lock where there are none (Windows, an
    NFS mount without locking: the write goes on, as before, not refused: a review)."""
    try:
        import fcntl

        fd = os.open(folder, os.O_RDONLY)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # (ENOLCK, EBADF on NFS)
            pass
        yield
    finally:
        os.close(fd)  # (the lock goes with it)


def write_beside(path: str, text: str | bytes) -> str:
    """`text` in a new file beside `path` (a hidden temporary name, `path`'s mode), on disk; its name. Beside
    a symbolic link's target: the callers have `followed` the path (a loop of links is refused there)."""
    folder = Path(os.path.realpath(path)).parent
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rnntui-", suffix=".tmp")
    except OSError as e:
        raise cannot_write(path, e) from None
    try:
        try:  # mkstemp makes it private (0600): slides served from a folder were unreadable
            os.fchmod(fd, file_mode(path))
        except (OSError, AttributeError):  # a file system without modes (vfat), or no fchmod (Windows)
            pass
        with (os.fdopen(fd, "wb") if isinstance(text, bytes) else os.fdopen(fd, "w", encoding="utf-8")) as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())  # on disk before the rename: a crash leaves the old file or the new
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise cannot_write(path, e) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


class Staged:
    """Files written beside their targets and put in place together, all or none (`commit`): an export
    that failed on its 9th frame left frames 1–8 new and the rest old, under the old index.md (a trial).
    `write` may be called from several threads; once discarded, a write leaves nothing (a PNG thread still
    drawing after a second ctrl+c left ~100 temporary files, a trial)."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}  # target → its new content's temporary name
        self.closed = False  # discarded: writes from now on leave no file
        self._lock = threading.Lock()

    def write(self, path: str, text: str | bytes) -> None:
        if self.closed:
            return
        target = followed(path)
        tmp = write_beside(path, text)
        with self._lock:  # (two names linked to one file: the last written is kept, once)
            if self.closed:  # (discarded while it was written: it goes too)
                old = tmp
            else:
                old, self.files[target] = self.files.get(target), tmp
        if old:
            Path(old).unlink(missing_ok=True)

    def commit(self) -> None:
        """Every file to its target, an old one set aside first. If one fails, or the run is stopped
        (ctrl+c), those put in place go back and the old files with them."""
        done: list[list] = []  # [target, where its old file waits or None, whether the new one is in place]
        path = ""
        try:
            for path, tmp in list(self.files.items()):
                entry = [path, None, False]
                done.append(entry)
                if os.path.lexists(path):
                    fd, entry[1] = tempfile.mkstemp(dir=Path(path).absolute().parent, prefix=".rnntui-old-")
                    os.close(fd)
                    os.replace(path, entry[1])
                os.replace(tmp, path)
                entry[2] = True
        except BaseException as e:
            for target, old, placed in reversed(done):
                try:
                    if old and (placed or not os.path.lexists(target)):
                        os.replace(old, target)
                    elif old:
                        Path(old).unlink(missing_ok=True)  # (the placeholder, the old file not moved yet)
                    elif placed:
                        Path(target).unlink(missing_ok=True)
                except OSError:
                    pass  # (the others are still put back)
            self.discard()
            if isinstance(e, OSError):
                raise cannot_write(path, e) from None
            raise
        for _target, old, _placed in done:
            if old:
                Path(old).unlink(missing_ok=True)
        self.files.clear()

    def discard(self) -> None:
        with self._lock:
            self.closed = True
            tmps = list(self.files.values())
            self.files.clear()
        for tmp in tmps:
            Path(tmp).unlink(missing_ok=True)


def check_creatable(path: str | Path) -> None:
    """Raise BadValue (one line) unless a file can be written at `path`: checked before long work,
    by creating (and removing) a temporary file beside it, as `write_atomic` will."""
    if Path(path).is_dir():
        raise BadValue(_("cannot write {path}: it is a folder").format(path=path))
    folder = Path(path).resolve().parent
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rnntui-", suffix=".probe")
    except OSError as e:
        raise cannot_write(path, e) from None
    os.close(fd)
    os.unlink(tmp)
    try:  # a shared folder (sticky, as /tmp): only the file's owner renames over it; found after training, a trial
        mine, there = os.stat(folder), os.stat(followed(str(path)))
    except OSError:
        return
    if mine.st_mode & stat.S_ISVTX and os.geteuid() not in (0, there.st_uid, mine.st_uid):
        raise BadValue(_("cannot write {path}: another user's file in a shared folder, which only they can "
                         "replace").format(path=path))


def check_savable(path: Path, merged: bool = False) -> None:
    """check_creatable, its folder made first (BadValue, one line): a run's cache, checked before it trains.
    `merged`: the run is merged into what the file holds, which must then read."""
    make_folder(path.parent, named=path)
    check_creatable(path)
    if merged:
        check_mergeable(path)


def check_mergeable(path: Path) -> None:
    """BadValue unless a file that a save merges into is absent or reads: an unreadable memory.json was
    replaced by the new run alone, and the runs in it were lost (a student's trial)."""
    try:
        read_head(path, 1)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):  # (nothing to keep; a folder: check_creatable's line)
        return
    except OSError as e:
        raise BadValue(_("cannot save in {path}: it does not read ({why}) and the runs in it would be lost; "
                         "make it readable or remove it").format(path=path, why=reason(e))) from None


def why_unsavable(path: Path, merged: bool = False) -> str:
    """check_savable's one line, or "" where the file can be written: a lab's note as `t` starts it."""
    try:
        check_savable(path, merged)
    except BadValue as e:
        return str(e)
    return ""


def path_arg(text: str) -> str:
    """argparse type for a path: an empty string is a bad value, not "not given"; a leading ~ is the home
    folder, as a shell gives it where it expands one (quoted, or in --out=~/x, it made a folder named ~ in the
    current one, and the line said "~/slides": a code review)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_("an empty path"))  # (not "a file or folder": -o takes a file only)
    return os.path.expanduser(text) if text.startswith("~") else text
