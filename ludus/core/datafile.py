"""Reading a file a user named (a record, a card-data or card-set file) without being fooled.

A path in an option or on the command line may name anything: a directory, a named pipe
that never answers, ``/dev/zero`` that never ends, or a file of gigabytes. These helpers
open regular files only, read at most ``limit`` bytes, and turn every problem into the
caller's error type with a message a player can act on.
"""

from __future__ import annotations

import os
import stat

from .errors import DataError, LudusError

MiB = 1024 * 1024


def _size_text(limit: int) -> str:
    if limit % MiB == 0:
        return f"{limit // MiB} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def _kind(mode: int) -> str | None:
    """Why a file of this mode is refused, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "it is a directory"
    if stat.S_ISFIFO(mode):
        return "it is a pipe, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "it is a device, not a regular file"
    return "it is not a regular file"


def read_bytes(path: str | os.PathLike[str], limit: int, what: str,
               error: type[LudusError] = DataError) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    ``what`` names the file in messages ("record", "card data"…). Anything else (no such file,
    no permission, a directory, pipe or device, a file over the limit) raises ``error``
    and reads nothing more.
    """
    name = os.fspath(path)
    try:
        reason = _kind(os.stat(name).st_mode)
    except ValueError:  # a NUL byte in the path; Python's own words for it differ from version to version
        raise error(f"cannot read {what} {name}: the name contains a null byte") from None
    except OSError as exc:
        raise error(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    if reason is not None:
        raise error(f"cannot read {what} {name}: {reason}")
    # O_NONBLOCK: if the path was swapped for a pipe since the stat, opening it does not wait
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except OSError as exc:
        raise error(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    try:
        reason = _kind(os.fstat(fd).st_mode)
        if reason is not None:
            raise error(f"cannot read {what} {name}: {reason}")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, MiB))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise error(f"cannot read {what} {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise error(f"{what} {name} is too large (over {_size_text(limit)})")
    return data


def read_text(path: str | os.PathLike[str], limit: int, what: str,
              error: type[LudusError] = DataError) -> str:
    """Like :func:`read_bytes`, decoded as UTF-8; other bytes raise ``error`` naming the line."""
    data = read_bytes(path, limit, what, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(f"{what} {os.fspath(path)}, line {line}: not UTF-8 text") from None


__all__ = ["MiB", "read_bytes", "read_text"]
