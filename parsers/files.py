"""Walking a repository safely: every file either yields text or a counted reason to skip it.

Nothing here raises on a bad file: binary files, non-UTF-8 files, oversized generated files,
unreadable files and symlink loops are skipped with a reason that the ingest summary counts.
Every read of a repository file goes through `read_inside`: the path, with its links resolved,
must lie inside the root, and only a regular file is opened (a FIFO or a device named `x.cpp`
would block the reader or feed it without end). The walk's own reads (`read_walked`) skip the
resolution for a file that is no link, reached from the root through directories that are no
links (the walk follows none): it is inside the root as walked.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from parsers.config import SOURCE_SUFFIXES


@dataclass(slots=True)
class Skip:
    path: str  # relative to the walked root
    reason: str


@dataclass(slots=True)
class SourceFile:
    rel: str  # relative POSIX path under the walked root
    path: str  # the root joined with `rel` (what the file memo is keyed by)
    stat: os.stat_result | None  # of the file a link leads to; None when it cannot be taken
    link: bool  # the name is a symlink (its target was checked to lie inside the root)


Folders = dict[str, dict[str, os.DirEntry[str]]]  # folder ("" the root, no trailing slash) -> name -> entry


def iter_source_files(
    root: Path, exclude_dirs: list[str], folders: Folders | None = None
) -> list[SourceFile | Skip]:
    """The source files under `root` (deterministic: in each directory its sorted files, then
    its sorted subdirectories, depth first), or a Skip for what cannot be walked.

    Directory symlinks are not followed (that is what makes loops impossible); file symlinks
    are followed only when they resolve inside `root`. `os.scandir` gives each entry's type
    without a system call and its stat with one (issue 30: the walk was a third of a re-ingest);
    one loop over a stack, not nested generators, which cost a frame per level per file.
    `folders`, when given, receives every walked folder's entries (what a re-ingest's check of
    a stored parse's licence probes and folder listings asks, without listing them again).
    """
    excluded = set(exclude_dirs)
    resolved = str(root.resolve())
    inside = resolved.rstrip("/") + "/"
    out: list[SourceFile | Skip] = []
    stack: list[tuple[str, str]] = [(str(root), "")]  # (directory, its prefix under the root)
    while stack:
        top, prefix = stack.pop()
        try:
            with os.scandir(top) as it:
                entries = {e.name: e for e in it}
        except OSError:
            continue  # an unreadable directory holds nothing (as os.walk without onerror)
        if folders is not None:
            folders[prefix[:-1]] = entries
        subdirs: list[os.DirEntry[str]] = []
        here: list[SourceFile | Skip] = []  # after the directory's own link skips
        for name in sorted(entries):
            entry = entries[name]
            try:
                is_dir = entry.is_dir()  # follows a link, as os.walk sorts entries
            except OSError:
                is_dir = False
            if is_dir:
                if name not in excluded and not name.startswith("."):
                    subdirs.append(entry)
                continue
            if not name.endswith(SOURCE_SUFFIXES):
                continue
            rel, link = prefix + name, entry.is_symlink()
            if link:
                try:
                    target = os.path.realpath(entry.path, strict=True)
                except (OSError, RuntimeError):
                    here.append(Skip(rel, "broken or looping symlink"))
                    continue
                if target != resolved and not target.startswith(inside):
                    here.append(Skip(rel, "symlink points outside the repository"))
                    continue
            try:
                st: os.stat_result | None = entry.stat()
            except OSError:
                st = None
            here.append(SourceFile(rel, entry.path, st, link))
        out += [Skip(prefix + e.name, "directory symlink not followed") for e in subdirs if e.is_symlink()]
        out += here
        stack += [(e.path, prefix + e.name + "/") for e in reversed(subdirs) if not e.is_symlink()]
    return out


OUTSIDE = "outside the repository"  # the reason a link leaving the root is refused with
NOT_REGULAR = "not a regular file"
DEFAULT_MAX_READ = 16_000_000  # bytes; a repository file larger than this is not text to parse


class _Refused(Exception):
    """A path that must not be opened (outside the root, or not a regular file)."""


def _open_inside(path: Path, root: Path) -> int:
    """A read-only descriptor of `path`, which must resolve inside `root` to a regular file."""
    try:
        target = path.resolve(strict=True)
    except RuntimeError as exc:  # a symlink loop on older Pythons
        raise OSError(errno.ELOOP, "symlink loop") from exc
    if not target.is_relative_to(root.resolve()):
        raise _Refused(f"{OUTSIDE} (resolves to {target})")
    # O_NONBLOCK: opening a FIFO for reading must not wait for a writer; O_NOFOLLOW: the
    # resolved path names no link, so a link swapped in since is refused, not followed.
    fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _Refused(NOT_REGULAR)
    return fd


def _read_fd(fd: int, size: int) -> bytes:
    with os.fdopen(fd, "rb") as handle:
        return handle.read(size)


class Refusals:
    """The paths refused by `read_inside` since the last `drain()` (outside links, FIFOs, ...),
    so that a stage can name them in its skips instead of dropping them in silence."""

    def __init__(self) -> None:
        self._skips: dict[str, Skip] = {}

    def add(self, skip: Skip) -> None:
        self._skips.setdefault(skip.path, skip)

    def drain(self) -> list[Skip]:
        out = list(self._skips.values())
        self._skips.clear()
        return out


REFUSED = Refusals()


def list_files(root: Path, rel: str) -> list[str]:
    """The names of the regular files in `root/rel`, sorted ([] when it is not a directory)."""
    try:
        return sorted(p.name for p in (root / rel).iterdir() if p.is_file())
    except OSError:
        return []


def read_inside(root: Path, rel: str, max_bytes: int = DEFAULT_MAX_READ) -> str | None:
    """The UTF-8 text of `root/rel`, or None when it is missing, unreadable, not text, too
    large, outside `root` once links are resolved, or not a regular file (the last two are
    recorded in `REFUSED` with the path). Every reader of repository files calls this."""
    text = read_source(root / rel, root, max_bytes)
    if isinstance(text, Skip):
        if text.reason.startswith((OUTSIDE, NOT_REGULAR)):
            REFUSED.add(text)
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as text-mode reads give it


def read_bytes_inside(root: Path, rel: str, max_bytes: int = DEFAULT_MAX_READ) -> bytes | None:
    """The bytes of `root/rel` under the rules of `read_inside` (inside the root once links are
    resolved, a regular file, opened without blocking), None when they refuse it or it is
    missing or unreadable: what a parse's dependencies are digested from."""
    try:
        fd = _open_inside(root / rel, root)
    except (_Refused, OSError, ValueError):
        return None
    try:
        return _read_fd(fd, max_bytes + 1)
    except OSError:
        return None


def read_source(path: Path, root: Path, max_bytes: int) -> str | Skip:
    """The file's text, or why it is skipped."""
    rel = _rel(path, root)
    try:
        fd = _open_inside(path, root)
    except _Refused as exc:
        return Skip(rel, str(exc))
    except OSError as exc:
        return _unreadable(rel, exc)
    return _read_opened(fd, rel, max_bytes)


def read_walked(item: SourceFile, root: Path, max_bytes: int) -> str | Skip:
    """The text of a file `iter_source_files` yielded, or why it is skipped. A file that is no
    link is inside the root as walked (reached through directories that are no links): it is
    opened without resolving its path again, with O_NOFOLLOW so that a link swapped in since
    is refused. A link goes through `read_source`, which resolves and checks its target."""
    if item.link:
        return read_source(Path(item.path), root, max_bytes)
    try:
        fd = os.open(item.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # the name is a link now
            return read_source(Path(item.path), root, max_bytes)
        return _unreadable(item.rel, exc)
    return _read_opened(fd, item.rel, max_bytes)


def _unreadable(rel: str, exc: OSError) -> Skip:
    if isinstance(exc, PermissionError):
        return Skip(rel, "unreadable (permission denied)")
    if isinstance(exc, FileNotFoundError):
        return Skip(rel, "missing")
    return Skip(rel, f"unreadable ({exc.strerror or exc})")


def _read_opened(fd: int, rel: str, max_bytes: int) -> str | Skip:
    """The text behind a descriptor of a repository file (closed here), or why it is skipped."""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            return Skip(rel, NOT_REGULAR)
        if st.st_size > max_bytes:
            os.close(fd)
            return Skip(rel, f"too large ({st.st_size / 1e6:.1f} MB > {max_bytes / 1e6:.1f} MB limit)")
        data = _read_fd(fd, max_bytes + 1)
    except OSError as exc:
        return _unreadable(rel, exc)
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
