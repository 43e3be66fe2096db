"""What earlier runs learnt about each file, valid while the file's stat is the same (the way
git's index avoids reading unchanged files): its entry count and includes for the walk, and its
content digest for checking a stored parse's dependencies. A re-ingest of an unchanged
repository then stats its files instead of reading them.

Kept beside the parse cache (`cache/files.sqlite` of the workspace), loaded whole at the start of
a run and written back in one transaction at its end. The stat compared is size, modification
time (ns), inode and change time (ns): an edit, a replacement or a `touch` each changes it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

Row = list[object]  # [stat, content digest or None, pickled (entries, includes) or None]


class FileMemo:
    """`rows`: absolute path -> Row; whoever changes a row names the path in `changed`."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.rows: dict[str, Row] = {}
        self.changed: set[str] = set()

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
        if self.path is None or not self.changed:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        rows = [(p, *self.rows[p]) for p in self.changed if p in self.rows]
        with sqlite3.connect(self.path) as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, stat TEXT, digest TEXT, scan BLOB)"
            )
            db.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", rows)
        self.changed.clear()
