"""Walking a repository safely: every file either yields text or a counted reason to skip it.

Nothing here raises on a bad file: binary files, non-UTF-8 files, oversized generated files,
unreadable files and symlink loops are skipped with a reason that the ingest summary counts.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from parsers.config import SOURCE_SUFFIXES


@dataclass(slots=True)
class Skip:
    path: str  # relative to the walked root
    reason: str


def iter_source_files(root: Path, exclude_dirs: list[str]) -> Iterator[Path | Skip]:
    """Yield source files under `root` (sorted, deterministic), or a Skip for what cannot be walked.

    Directory symlinks are not followed (that is what makes loops impossible); file symlinks
    are followed only when they resolve inside `root`.
    """
    excluded = set(exclude_dirs)
    root_resolved = root.resolve()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=None):
        current = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d not in excluded and not d.startswith("."))
        for dirname in dirnames:
            if (current / dirname).is_symlink():
                yield Skip(_rel(current / dirname, root), "directory symlink not followed")
        for name in sorted(filenames):
            path = current / name
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            if path.is_symlink():
                try:
                    target = path.resolve(strict=True)
                except (OSError, RuntimeError):
                    yield Skip(_rel(path, root), "broken or looping symlink")
                    continue
                if not target.is_relative_to(root_resolved):
                    yield Skip(_rel(path, root), "symlink points outside the repository")
                    continue
            yield path


def read_source(path: Path, root: Path, max_bytes: int) -> str | Skip:
    """The file's text, or why it is skipped."""
    rel = _rel(path, root)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            return Skip(rel, f"too large ({size / 1e6:.1f} MB > {max_bytes / 1e6:.1f} MB limit)")
        data = path.read_bytes()
    except PermissionError:
        return Skip(rel, "unreadable (permission denied)")
    except OSError as exc:
        return Skip(rel, f"unreadable ({exc.strerror or exc})")
    if b"\x00" in data[:8192]:
        return Skip(rel, "binary file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return Skip(rel, "not UTF-8 text")


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()
