"""A content-addressed cache of parsed entry files, so a re-ingest parses only what changed.

An entry file's units depend on more than its own text: the headers its include closure
reaches, the host files and documents beside it, the licence files above it, which files the
repository holds (include resolution, `op_host/` listings), the source's name and commit, the
parser's code and its configuration. The cache splits these in two:

- the *key* holds what is cheap to know before parsing: the entry's path, the parser version
  (a digest of the `parsers/` and `schemas/` sources and of the libclang build), the parse
  options, the source, and the repository's file list;
- the *dependencies* hold what the parse read: each file it opened (with its content digest, or
  None when it was absent) and each directory it listed. They are recorded by the worker while
  it parses, stored beside the outcome, and checked again on every lookup: one changed header
  invalidates exactly the entries that read it.

Stored in one SQLite file of the workspace (`cache/parse.sqlite`); every write is a transaction,
so a killed ingest leaves the cache as it was before the write or after it, never half of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from parsers.filememo import FileMemo, stat_key
from parsers.files import Folders, read_bytes_inside

CACHE_FORMAT = 2  # bump when what is stored changes shape
# Stored as plain pickles: zlib made the cache 4x smaller (ops-math: 37 MB -> 9 MB) but its
# decompression was a third of a re-ingest of an unchanged repository (0.12 s of 0.40 s).
_PICKLE = pickle.HIGHEST_PROTOCOL
_KEYS_PER_QUERY = 500  # bound parameters per query (SQLite allows at least 999)


def file_digest(root: Path, rel: str) -> str | None:
    """The digest of a file's bytes (None when it cannot be read, or must not be: a link out of
    the root, a FIFO): what a recorded dependency holds, and what a lookup compares it with."""
    data = read_bytes_inside(root, rel)
    return hashlib.blake2b(data, digest_size=16).hexdigest() if data is not None else None


def digest_of(*parts: object) -> str:
    """One digest of several values (their reprs, separated)."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        h.update(repr(part).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


@cache
def parser_version() -> str:
    """A digest of the code that turns a file into units: every `parsers/` and `schemas/` module
    and the libclang build. Any change to either makes every entry a miss, so a fix to the
    parser is never hidden behind an old result."""
    here = Path(__file__).resolve().parent
    h = hashlib.blake2b(digest_size=16)
    for package in (here, here.parent / "schemas"):
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".h", ".txt", ".json") and path.is_file():
                h.update(path.relative_to(package).as_posix().encode())
                h.update(path.read_bytes())
    with contextlib.suppress(metadata.PackageNotFoundError):
        h.update(metadata.version("libclang").encode())
    return f"{CACHE_FORMAT}-{h.hexdigest()}"


@dataclass(slots=True)
class Deps:
    """What one entry file's parse read: file -> content digest (None: absent), directory ->
    digest of its listing."""

    reads: dict[str, str | None] = field(default_factory=dict)
    listings: dict[str, str] = field(default_factory=dict)
    # file -> its stat, taken before the read that gave its digest (for the file memo: an edit
    # between the two changes the stat again, so a stale digest is never taken for the new one)
    stats: dict[str, str] = field(default_factory=dict)


def stat_of(path: str) -> str:
    """The stat a memo row is valid for ("" when there is none): size, mtime, inode, ctime."""
    try:
        st = os.stat(path)
    except OSError:
        return ""
    return stat_key(st)


def listing_digest(names: Iterable[str]) -> str:
    return digest_of(sorted(names))


class DepChecker:
    """Checks recorded dependencies against the tree as it is now (each file read once a run).

    `stats` (relative path -> stat, as `stat_of` writes it) are those the walk just took of the
    repository's source files: a dependency among them costs no system call. A file that is not
    among them is looked for in its folder's names first: most are licence probes that find
    nothing (7,700 of 12,500 on ops-math), and a name the folder lacks cannot be opened either.
    `folders` (folder -> its entries) are those the walk just listed: a folder among them, for
    those names or for a listing a parse read, is not listed again."""

    def __init__(
        self,
        root: Path,
        memo: FileMemo | None = None,
        stats: dict[str, str] | None = None,
        folders: Folders | None = None,
    ) -> None:
        self.root = root
        self.memo = memo if memo is not None else FileMemo(None)
        self.stats = stats if stats is not None else {}
        self.folders = folders if folders is not None else {}
        self._prefix = os.path.join(root, "")  # joined by concatenation: 20k joins were 0.04 s
        self._files: dict[str, str | None] = {}
        self._dirs: dict[str, str] = {}
        self._names: dict[str, frozenset[str]] = {}

    def _names_in(self, folder: str) -> frozenset[str]:
        """Every name in `folder` ("" the root); none when it cannot be listed."""
        names = self._names.get(folder)
        if names is None:
            walked = self.folders.get(folder)
            if walked is not None:
                names = frozenset(walked)
            else:
                try:
                    names = frozenset(os.listdir(self._prefix + folder))
                except OSError:
                    names = frozenset()
            self._names[folder] = names
        return names

    def file_digest(self, rel: str) -> str | None:
        """The file's digest; from the memo while the file's stat is the one it was taken at."""
        if rel in self._files:
            return self._files[rel]
        stat = self.stats.get(rel)
        if stat is None:
            folder, _, name = rel.rpartition("/")
            stat = stat_of(self._prefix + rel) if name in self._names_in(folder) else ""
        found: str | None = None  # what cannot be stat-ed cannot be read: absent
        if stat:
            where = self._prefix + rel
            row = self.memo.rows.get(where)
            if row is not None and row[0] == stat and row[1] is not None:
                found = str(row[1])
            else:
                found = file_digest(self.root, rel)
                if found is not None:
                    scan = row[2] if row is not None and row[0] == stat else None
                    self.memo.rows[where] = [stat, found, scan]
                    self.memo.changed.add(where)
        self._files[rel] = found
        return found

    def listing(self, rel: str) -> str:
        if rel not in self._dirs:
            walked = self.folders.get(rel)
            if walked is not None:
                names = [name for name, e in walked.items() if e.is_file()]
            else:
                try:
                    # scandir: a file's type comes with its name (a link's alone costs a stat)
                    with os.scandir(self._prefix + rel) as entries:
                        names = [e.name for e in entries if e.is_file()]
                except OSError:
                    names = []
            self._dirs[rel] = listing_digest(names)
        return self._dirs[rel]

    def holds(self, deps: Deps) -> bool:
        known = self._files  # most dependencies are shared (headers, licence probes): checked once
        for rel, digest in deps.reads.items():
            if (known[rel] if rel in known else self.file_digest(rel)) != digest:
                return False
        return all(self.listing(rel) == d for rel, d in deps.listings.items())


@dataclass(slots=True)
class ParsedFile:
    """What a parser worker returns for one entry file: its outcomes ((path, units or Skip); the
    files its reads refused come after the file's own) and, when the outcome may be stored, what
    the parse read."""

    outcomes: list[tuple[str, Any]]
    deps: Deps | None
    # (index, why) of the units of the file's own outcome that no column of the units table can
    # hold: checked by the worker, in parallel, instead of by the command over every unit
    unfit: list[tuple[int, str]] = field(default_factory=list)


def entry_keys(context: object, rels: Iterable[str]) -> dict[str, str]:
    """The key of each entry file: its path under a digest of everything every entry shares."""
    shared = digest_of(parser_version(), context)
    return {rel: digest_of(shared, rel) for rel in rels}


@dataclass(slots=True)
class Plan:
    """Which entry files of a run to parse: `keys` of every candidate, the `stored` outcomes
    that still hold, and the files left `to_parse`, in order."""

    keys: dict[str, str]
    stored: dict[str, Any]
    to_parse: list[str]


class ParseCache:
    """The stored outcomes, by key; `path` None is a cache that holds nothing (no workspace)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        self.digests: dict[str, str] = {}  # key -> digest of the outcome found or stored this run

    def _connect(self) -> sqlite3.Connection | None:
        if self.path is None:
            return None
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS outcomes (key TEXT PRIMARY KEY, deps BLOB, outcome BLOB, digest TEXT)"
            )
        return self._db

    def _rows(self, keys: Iterable[str]) -> dict[str, tuple[bytes, bytes, str]]:
        """(deps, outcome, digest) of each stored key of `keys`, read in a few queries (one per
        chunk of keys: a query per key was a fifth of a re-ingest of an unchanged repository)."""
        db = self._connect()
        if db is None:
            return {}
        wanted = list(dict.fromkeys(keys))
        found: dict[str, tuple[bytes, bytes, str]] = {}
        for at in range(0, len(wanted), _KEYS_PER_QUERY):
            chunk = wanted[at : at + _KEYS_PER_QUERY]
            marks = ",".join("?" * len(chunk))
            query = f"SELECT key, deps, outcome, digest FROM outcomes WHERE key IN ({marks})"
            for key, deps, outcome, digest in db.execute(query, chunk):
                found[key] = (deps, outcome, digest)
        return found

    def _hit(self, key: str, row: tuple[bytes, bytes, str] | None, checker: DepChecker) -> Any | None:
        """The stored outcome of `row` when its dependencies still hold, else None (a miss)."""
        if row is not None:
            try:
                deps: Deps = pickle.loads(row[0])
                if checker.holds(deps):
                    outcome = pickle.loads(row[1])
                    self.hits += 1
                    self.digests[key] = str(row[2])
                    return outcome
            except (pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError):
                pass  # an entry of an older shape: parse again and overwrite it
        self.misses += 1
        return None

    def lookup_all(self, keys: dict[str, str], checker: DepChecker) -> dict[str, Any]:
        """The stored outcome of every entry file whose dependencies still hold."""
        rows = self._rows(keys.values())
        found = {rel: self._hit(key, rows.get(key), checker) for rel, key in keys.items()}
        return {rel: outcome for rel, outcome in found.items() if outcome is not None}

    def plan(self, context: object, candidates: list[str], first: list[str], checker: DepChecker) -> Plan:
        """The plan of a run whose shared inputs are `context`, parsing `first` (a subset of
        `candidates`, which may be looked up later), the stored outcomes checked by `checker`."""
        keys = entry_keys(context, candidates)
        stored = self.lookup_all({rel: keys[rel] for rel in first}, checker)
        return Plan(keys, stored, [rel for rel in first if rel not in stored])

    def store(self, keys: dict[str, str], parsed: list[tuple[str, Any]], root: Path, memo: FileMemo) -> None:
        """Store, in one transaction, each worker result that carries its dependencies; the
        digests the workers took go to the file memo, so the next run's check reads no file."""
        for _, r in parsed:
            deps = r.deps if isinstance(r, ParsedFile) else None
            for rel, stat in deps.stats.items() if deps is not None else ():
                where, found = os.path.join(root, rel), deps.reads.get(rel)  # type: ignore[union-attr]
                row = memo.rows.get(where)
                if stat and found is not None and (row is None or row[0] != stat or row[1] is None):
                    memo.rows[where] = [stat, found, row[2] if row is not None and row[0] == stat else None]
                    memo.changed.add(where)
        db = self._connect()
        rows = []
        for rel, r in parsed:
            if isinstance(r, ParsedFile) and r.deps is not None and rel in keys:
                outcome = pickle.dumps(r.outcomes, _PICKLE)
                digest = hashlib.blake2b(outcome, digest_size=16).hexdigest()
                rows.append((keys[rel], pickle.dumps(r.deps, _PICKLE), outcome, digest))
                self.digests[keys[rel]] = digest
        if db is None or not rows:
            return
        with db:
            db.executemany("INSERT OR REPLACE INTO outcomes VALUES (?, ?, ?, ?)", rows)

    def fingerprint(self) -> str:
        """One digest of every outcome this run found or stored (by key and content): two runs
        with the same fingerprint and nothing parsed outside the cache give the same units."""
        return digest_of(sorted(self.digests.items()))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
