"""Writing output files so that a failure leaves any old file whole."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from rnntui.i18n import _
from rnntui.state import BadValue


def write_atomic(path: str, text: str | bytes) -> None:
    """Write beside the target, then rename: a failure leaves any old file whole."""
    folder = Path(path).resolve().parent
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rnntui-", suffix=".tmp")
    except OSError as e:
        raise BadValue(_("cannot write {path}: {reason}").format(path=path, reason=e.strerror or e)) from None
    try:
        with (os.fdopen(fd, "wb") if isinstance(text, bytes) else os.fdopen(fd, "w", encoding="utf-8")) as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise BadValue(_("cannot write {path}: {reason}").format(path=path, reason=e.strerror or e)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
