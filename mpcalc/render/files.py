"""Files an output option writes (``--svg``, ``--plot``): each written whole to a temporary file in the same
folder, then renamed into place (``os.replace``), so a reader, or a second writer of the same path, sees the
old file or a new one, never a torn one.  A file that cannot be written (no such folder, no permission, a
folder, a full disk) is an :class:`~mpcalc.dpdk.core.errors.OutputError` naming it."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator

from mpcalc.dpdk.core.errors import OutputError, os_reason


@contextlib.contextmanager
def replacing(path: str, option: str) -> Iterator[str]:
    """The name of a temporary file (the same extension) to write in ``path``'s folder; when the block ends
    it becomes ``path`` (with the mode a new file gets, or the old file's), and on an error it is removed."""
    name = f"{option} {path!r}"
    folder, base = os.path.split(os.path.abspath(path))
    if os.path.isdir(path):
        raise OutputError(name, "it is a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{base}.", suffix=os.path.splitext(base)[1], dir=folder)
    except OSError as exc:
        raise OutputError(name, os_reason(exc)) from None
    os.close(fd)
    try:
        yield tmp
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:  # a new file: what the umask leaves of rw-rw-rw-
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(name, os_reason(exc)) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
