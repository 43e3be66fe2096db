"""Files written whole or not at all: a temporary file beside the target, renamed onto it.

Apart from `schemas.tables` because that module imports Arrow (0.3 s): reports and meta.json
are written by every run, and a re-ingest that keeps its table writes nothing else."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

# The process's umask, read once at import (reading it means setting it: not safe once threads
# run). A file written here gets the mode `open()` would give it; mkstemp's 0600 made reports
# unreadable to the group a workspace is shared with.
_UMASK = os.umask(0o022)
os.umask(_UMASK)


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[str]:
    """A temporary file beside `path`, renamed onto it when the block succeeds and removed
    when it fails: a crash leaves the old file or the new one, never a half-written one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
