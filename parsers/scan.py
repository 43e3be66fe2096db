"""The walk before the parse: which files a repository holds and which of them to parse.

Every source file is read once, to find the files that define a kernel entry (`__global__`,
`CATLASS_GLOBAL`) and to follow its `#include`s. A header that defines an entry is parsed
through the source file that includes it (its entries then belong to that file); it is parsed
on its own only when no entry source file reaches it through its includes.
"""

from __future__ import annotations

import contextlib
import hashlib
import pickle
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from parsers.cache import parser_version
from parsers.config import ENTRY_SUFFIXES, IngestConfig
from parsers.entries import (
    DEFINE_LINE_RE,
    INCLUDE_LINE_RE,
    LITERAL_ENTRY_RE,
    MACRO_ENTRY_LINE_RE,
    MACRO_ENTRY_USE_RE,
    EntryScan,
    FileEntries,
    Includes,
)
from parsers.filememo import FileMemo, stat_key
from parsers.files import Folders, Skip, SourceFile, iter_source_files, read_walked
from schemas.ascendc.includes import RepoIndex

HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inc")
_MEMO_LAYOUT = "entries-2"  # what a memo row's scan blob holds: (layout, FileEntries, includes)


@dataclass(slots=True)
class RepoScan:
    files: list[str]  # every readable source file, relative POSIX paths, sorted
    candidates: list[str]  # files that may be parsed for entries: `sources`, then every header one
    skipped: list[Skip]
    sources: list[str]  # entry files that are not headers (or that include a header entry)
    lone_headers: list[str]  # headers with entries that no entry source file reaches
    reached: frozenset[str]  # every file the entry source files reach through their includes


def _promote_header_includers(candidates: list[str], includes: Includes, index: RepoIndex) -> list[str]:
    """A header that defines an entry is parsed through the source file that includes it
    (`op_kernel/x_apt.cpp` including `arch35/x.h`), so the unit's path is the entry file's."""
    by_basename: dict[str, list[tuple[str, str, bool]]] = {}
    for includer, names in includes.items():
        for name, angled in names:
            by_basename.setdefault(posixpath.basename(name), []).append((includer, name, angled))
    out: list[str] = []
    for rel in candidates:
        if not rel.endswith(HEADER_SUFFIXES):
            out.append(rel)
            continue
        includers = [
            includer
            for includer, name, angled in by_basename.get(posixpath.basename(rel), [])
            if not includer.endswith(HEADER_SUFFIXES) and index.resolve(name, includer, angled) == rel
        ]
        out += includers or [rel]
    return list(dict.fromkeys(out))


def _reached(starts: list[str], includes: Includes, index: RepoIndex) -> set[str]:
    """Every file the include closures of `starts` hold (the resolution `include_closure` uses)."""
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        for name, angled in includes.get(rel, []):
            target = index.resolve(name, rel, angled)
            if target is not None and target not in seen:
                todo.append(target)
    return seen


def scan_repository(
    root: Path,
    config: IngestConfig,
    memo: FileMemo | None = None,
    on_change: Callable[[], None] | None = None,
    stats: dict[str, str] | None = None,
    folders: Folders | None = None,
) -> RepoScan:
    """The repository's files and what to parse. When every walked file has the stat it had at
    the scan `memo` keeps for this root, that scan is the answer; otherwise `on_change` is
    called, the files are scanned again (`_rescan`, else `_scan`) and the result kept for the
    next run. With a memo, `stats` receives the stat the walk took of each file, and `folders`
    the entries of each folder it listed (what `DepChecker` compares)."""
    walked = list(iter_source_files(root, config.exclude_dirs, folders))
    if memo is None or memo.path is None:
        if on_change is not None:
            on_change()
        return _scan(root, config, memo, walked)
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((_MEMO_LAYOUT, parser_version(), str(root), config.exclude_dirs)).encode())
    h.update(repr((config.max_file_mb, config.max_units_per_file)).encode())
    if stats is None:
        stats = {}
    walk: list[tuple[str, str]] = []  # (path, stat) of each walked file; (path, why) of a skip
    for item in walked:
        if isinstance(item, Skip):
            line = (item.path, f"skip: {item.reason}")
            h.update(f"skip\0{item.path}\0{item.reason}\n".encode("utf-8", "surrogatepass"))
        else:
            st = item.stat
            if st is None:
                stat = "-"
            else:
                stat = stats[item.rel] = stat_key(st)
            line = (item.rel, stat)
            h.update(f"{item.rel}\0{stat}\n".encode("utf-8", "surrogatepass"))
        walk.append(line)
    key = h.hexdigest()
    stored = memo.stored_scan(str(root))
    kept = _unpickled(stored[1]) if stored is not None else None
    if kept is not None and stored is not None and stored[0] == key:
        return kept
    if on_change is not None:
        on_change()
    # The settings (parser, limits, root) are in `key` too; they are kept with the walk, so that
    # a walk taken under other settings is no base for `_rescan`.
    limits = (config.exclude_dirs, config.max_file_mb, config.max_units_per_file)
    settings = hashlib.blake2b(repr((_MEMO_LAYOUT, parser_version(), str(root), limits)).encode()).hexdigest()
    base = memo.stored_walk(str(root), settings) if kept is not None else None
    scan = _rescan(root, config, memo, walked, base, kept) if base is not None and kept is not None else None
    if scan is None:
        scan = _scan(root, config, memo, walked)
    memo.keep_scan(str(root), key, pickle.dumps(scan, protocol=pickle.HIGHEST_PROTOCOL), settings, walk)
    return scan


def _unpickled(blob: bytes) -> RepoScan | None:
    with contextlib.suppress(pickle.UnpicklingError, EOFError, AttributeError, TypeError):
        kept = pickle.loads(blob)
        if isinstance(kept, RepoScan):
            return kept
    return None


def _rescan(
    root: Path,
    config: IngestConfig,
    memo: FileMemo,
    walked: list[SourceFile | Skip],
    base: list[tuple[str, str]],
    kept: RepoScan,
) -> RepoScan | None:
    """`kept` again, when the tree holds the same names as at the walk `base` it was scanned
    from and each file whose stat changed since still says what it said (same entries, same
    includes): an edit inside a kernel's body, the common case, changes no scan. None when
    anything else changed (`_scan` then takes the files this read from the memo). Deriving
    the scan from every file's facts again (include resolution, header promotion) was 0.2 s
    of a one-file re-ingest of ops-math."""
    if len(base) != len(walked):
        return None
    rows, max_bytes, same = memo.rows, int(config.max_file_mb * 1e6), True
    for item, (name, seen) in zip(walked, base, strict=True):
        if isinstance(item, Skip):
            if (item.path, f"skip: {item.reason}") != (name, seen):
                return None
            continue
        st = item.stat
        if item.rel != name or st is None:
            return None
        stat = stat_key(st)
        if stat == seen:
            continue
        row = rows.get(item.path)
        text = read_walked(item, root, max_bytes)
        if isinstance(text, Skip):
            return None
        facts, spelt = _text_facts(item.rel, text)
        now = (_MEMO_LAYOUT, facts, spelt)
        rows[item.path] = [stat, None, pickle.dumps(now)]
        memo.changed.add(item.path)
        same = same and _facts_at(row, seen) == now
    return kept if same else None


def _facts_at(row: list[object] | None, stat: str) -> object:
    """What a memo row says a file's text held when the file had `stat` (what a kept scan was
    derived from), None when the row is of another stat or unreadable."""
    if row is None or row[0] != stat or not isinstance(row[2], bytes):
        return None
    with contextlib.suppress(pickle.UnpicklingError, EOFError, AttributeError, TypeError, ValueError):
        return pickle.loads(row[2])
    return None


def _text_facts(rel: str, text: str) -> tuple[FileEntries, list[tuple[str, bool]]]:
    """What a file's text says about kernel entries (entries written out, macro definitions,
    macro entry uses) and the includes it spells (name, angled). Each regex is run only where
    its literal occurs, or from where a match can start."""
    written, defines, uses, end = 0, [], set(), 0
    lined = "\n" + text  # where every line, the first too, follows a newline
    if "define" in text:
        for m in DEFINE_LINE_RE.finditer(lined):
            defines.append((m.group(1), m.group(2)))
    if rel.endswith(ENTRY_SUFFIXES):
        if "__global__" in text or "CATLASS_GLOBAL" in text:
            written = len(LITERAL_ENTRY_RE.findall(text))
        for start in MACRO_ENTRY_LINE_RE.finditer(lined):
            # a line start of `text` (the newline before it is at the same offset in "\n" + text)
            if start.start() >= end and (use := MACRO_ENTRY_USE_RE.match(text, start.start())):
                uses.add(use.group(1))
                end = use.end()
    spelt = []
    if "include" in text:
        for m in INCLUDE_LINE_RE.finditer(lined):
            spelt.append((m.group(2).strip(), m.group(1) == "<"))
    return (written, tuple(defines), tuple(sorted(uses))), spelt


def _scan(
    root: Path, config: IngestConfig, memo: FileMemo | None, walked: list[SourceFile | Skip]
) -> RepoScan:
    """The scan of the walked files. A file whose stat `memo` knows is not read again: its entry
    count and includes come from the memo."""
    files: list[str] = []
    entry_files: list[str] = []
    skipped: list[Skip] = []
    includes: Includes = {}
    facts_of: dict[str, FileEntries] = {}  # what each file's text says about kernel entries
    max_bytes = int(config.max_file_mb * 1e6)
    rows = memo.rows if memo is not None else None
    for item in walked:
        if isinstance(item, Skip):
            skipped.append(item)
            continue
        rel, where, st = item.rel, item.path, item.stat
        known, stat = None, ""
        if rows is not None:
            stat = stat_key(st) if st is not None else ""
            row = rows.get(where)
            fits = st is not None and st.st_size <= max_bytes
            if fits and row is not None and row[0] == stat and row[2] is not None:
                known = pickle.loads(row[2])  # type: ignore[arg-type]
                if not (isinstance(known, tuple) and len(known) == 3 and known[0] == _MEMO_LAYOUT):
                    known = None  # a memo row of an earlier layout: read the file again
        if known is not None:
            _, facts, spelt = known
        else:
            text = read_walked(item, root, max_bytes)
            if isinstance(text, Skip):
                skipped.append(text)
                continue
            facts, spelt = _text_facts(rel, text)
            if rows is not None and memo is not None and stat:
                rows[where] = [stat, None, pickle.dumps((_MEMO_LAYOUT, facts, spelt))]
                memo.changed.add(where)
        facts_of[rel] = facts
        entries = facts[0]
        if config.max_units_per_file and entries > config.max_units_per_file:
            limit = config.max_units_per_file
            skipped.append(Skip(rel, f"too many kernel entries ({entries} > {limit} per file limit)"))
            continue
        files.append(rel)
        if entries:
            entry_files.append(rel)
        if spelt:
            includes[rel] = spelt
    index = RepoIndex.build(files)
    more = EntryScan.of(facts_of).more_candidates(index, includes)  # macro and library entries
    candidates = _promote_header_includers(entry_files + more, includes, index)
    sources = [r for r in candidates if not r.endswith(HEADER_SUFFIXES)]
    reached = _reached(sources, includes, index)
    headers = [r for r in candidates if r.endswith(HEADER_SUFFIXES)]
    lone = [r for r in headers if r not in reached]
    return RepoScan(files, sources + headers, skipped, sources, lone, frozenset(reached))
