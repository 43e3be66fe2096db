"""What earlier runs learnt about each file, valid while the file's stat is the same (the way
git's index avoids reading unchanged files): its entry count and includes for the walk, and its
content digest for checking a stored parse's dependencies. A re-ingest of an unchanged
repository then stats its files instead of reading them.

It also keeps, per walked root, the last scan's result (`scans`) under a key of every walked
file's stat: a walk that finds them all as they were takes that result as it is, without reading
each file's row or resolving includes again. Beside it (`walks`), the walk that scan came from,
each file with its stat: a walk that finds the same names and a few stats changed reads only
those files (parsers/scan.py, `_rescan`).

Kept beside the parse cache (`cache/files.sqlite` of the workspace), loaded whole at the start of
a run and written back in one transaction at its end. The stat compared is size, modification
time (ns), inode and change time (ns): an edit, a replacement or a `touch` each changes it.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sqlite3
from pathlib import Path
from typing import Any

Row = list[object]  # [stat, content digest or None, pickled (entries, includes) or None]


def stat_key(st: os.stat_result) -> str:
    """The stat a memo row is valid for: size, modification time, inode, change time (the one
    spelling every comparison of a memo row, a walk and a parse's dependencies uses)."""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}:{st.st_ctime_ns}"


class FileMemo:
    """`rows`: absolute path -> Row; whoever changes a row names the path in `changed`."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.rows: dict[str, Row] = {}
        self.changed: set[str] = set()
        self._scan: tuple[str, str, bytes] | None = None  # (root, key, scan) to write on save
        self._walk: tuple[str, str, bytes] | None = None  # (root, settings, walk) to write on save

    def stored_scan(self, root: str) -> tuple[str, bytes] | None:
        """(key, pickled scan) of the last scan of `root`, None when there is none."""
        row = self._query("SELECT key, scan FROM scans WHERE root = ?", root)
        return (str(row[0]), bytes(row[1])) if row is not None else None

    def stored_walk(self, root: str, settings: str) -> list[tuple[str, str]] | None:
        """The walk the stored scan of `root` came from ((path, stat or skip reason) of each
        walked file) when it was taken under `settings`; None otherwise."""
        row = self._query("SELECT settings, walk FROM walks WHERE root = ?", root)
        if row is None or row[0] != settings:
            return None
        with contextlib.suppress(pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError):
            walk = pickle.loads(row[1])
            if isinstance(walk, list):
                return walk
        return None

    def _query(self, sql: str, root: str) -> tuple[Any, ...] | None:
        if self.path is None or not self.path.exists():
            return None
        try:
            db = sqlite3.connect(self.path)
            try:
                row = db.execute(sql, (root,)).fetchone()
            finally:
                db.close()
        except sqlite3.Error:
            return None  # no table yet, or an unreadable memo: as if there were none
        return tuple(row) if row is not None else None

    def keep_scan(self, root: str, key: str, scan: bytes, settings: str, walk: list[tuple[str, str]]) -> None:
        """Keep, to write on save, a scan of `root` under its key, and the walk it came from."""
        self._scan = (root, key, scan)
        self._walk = (root, settings, pickle.dumps(walk, protocol=pickle.HIGHEST_PROTOCOL))

    def load(self) -> FileMemo:
        if self.path is None or not self.path.exists():
            return self
        try:
            with sqlite3.connect(self.path) as db:
                self.rows = {
                    p: [s, d, b] for p, s, d, b in db.execute("SELECT path, stat, digest, scan FROM files")
                }
        except sqlite3.Error:
            self.rows = {}  # an unreadable memo is an empty one: every file is read again
        return self

    def save(self) -> None:
        if self.path is None or not (self.changed or self._scan):
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        rows = [(p, *self.rows[p]) for p in self.changed if p in self.rows]
        with sqlite3.connect(self.path) as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, stat TEXT, digest TEXT, scan BLOB)"
            )
            db.execute("CREATE TABLE IF NOT EXISTS scans (root TEXT PRIMARY KEY, key TEXT, scan BLOB)")
            db.execute("CREATE TABLE IF NOT EXISTS walks (root TEXT PRIMARY KEY, settings TEXT, walk BLOB)")
            db.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", rows)
            if self._scan is not None:
                db.execute("INSERT OR REPLACE INTO scans VALUES (?, ?, ?)", self._scan)
            if self._walk is not None:
                db.execute("INSERT OR REPLACE INTO walks VALUES (?, ?, ?)", self._walk)
        db.close()
        self.changed.clear()
        self._scan = self._walk = None
