"""Ingesting a repository: walk it, find the kernel entry files, parse them in parallel.

The walk reads every source file once (to find entries and to index includes); only files
that define a `__global__` kernel are parsed. Parsing runs over worker processes (parsers/pool.py),
each with its own libclang index, one file at a time under time and memory limits. A file that
fails for any reason (a parser error, a crash, a limit) becomes a counted skip, never a crash.
"""

from __future__ import annotations

import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from parsers.clang_frontend import UnparsableFile
from parsers.config import ENTRY_SUFFIXES, IngestConfig
from parsers.entries import EntryScan
from parsers.files import REFUSED, Skip, iter_source_files, read_source
from parsers.pool import Job, Limits, Progress, WorkerPool
from parsers.units import RepoContext, SourceInfo, units_for_entry_file
from schemas import KernelUnit, recordable
from schemas.ascendc import INCLUDE_RE
from schemas.ascendc.includes import RepoIndex

_ENTRY_RE = re.compile(r"\b__global__\b|\bCATLASS_GLOBAL\b")
_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inc")


@dataclass
class IngestResult:
    units: list[KernelUnit] = field(default_factory=list)
    files_seen: int = 0
    entry_files: int = 0
    skipped: list[Skip] = field(default_factory=list)

    @property
    def partial(self) -> int:
        return sum(1 for u in self.units if u.parse_status == "partial")


@dataclass(slots=True)
class RepoScan:
    files: list[str]
    candidates: list[str]  # files to parse for entries
    skipped: list[Skip]


def _promote_header_includers(
    candidates: list[str], includes: dict[str, list[tuple[str, str, bool]]], index: RepoIndex
) -> list[str]:
    """A header that defines an entry is parsed through the source file that includes it
    (`op_kernel/x_apt.cpp` including `arch35/x.h`), so the unit's path is the entry file's."""
    out: list[str] = []
    for rel in candidates:
        if not rel.endswith(_HEADER_SUFFIXES):
            out.append(rel)
            continue
        includers = [
            includer
            for includer, name, angled in includes.get(posixpath.basename(rel), [])
            if not includer.endswith(_HEADER_SUFFIXES) and index.resolve(name, includer, angled) == rel
        ]
        out += includers or [rel]
    return list(dict.fromkeys(out))


def scan_repository(root: Path, config: IngestConfig) -> RepoScan:
    files: list[str] = []
    candidates: list[str] = []
    skipped: list[Skip] = []
    includes: dict[str, list[tuple[str, str, bool]]] = {}  # basename -> (includer, name, angled)
    max_bytes = int(config.max_file_mb * 1e6)
    entry_scan = EntryScan()  # entries written out, through a repository macro, or from a library
    for item in iter_source_files(root, config.exclude_dirs):
        if isinstance(item, Skip):
            skipped.append(item)
            continue
        rel = item.relative_to(root).as_posix()
        text = read_source(item, root, max_bytes)
        if isinstance(text, Skip):
            skipped.append(text)
            continue
        entries = entry_scan.count(rel, text, rel.endswith(ENTRY_SUFFIXES))
        if config.max_units_per_file and entries > config.max_units_per_file:
            limit = config.max_units_per_file
            skipped.append(Skip(rel, f"too many kernel entries ({entries} > {limit} per file limit)"))
            continue
        files.append(rel)
        if entries:
            candidates.append(rel)
        for m in INCLUDE_RE.finditer(text):
            name = m.group(2).strip()
            includes.setdefault(posixpath.basename(name), []).append((rel, name, m.group(1) == "<"))
    index = RepoIndex.build(files)
    candidates = _promote_header_includers(
        candidates + entry_scan.more_candidates(index, includes), includes, index
    )
    return RepoScan(files, candidates, skipped)


# ---- worker side -------------------------------------------------------------------------

_CONTEXT: RepoContext | None = None
_MAX_UNITS = 0


def _init_worker(root: Path, files: list[str], source: SourceInfo, config: IngestConfig) -> None:
    global _CONTEXT, _MAX_UNITS
    _CONTEXT = RepoContext(
        root=root,
        index=RepoIndex.build(files),
        source=source,
        max_diagnostics=config.max_diagnostics,
        std=config.std,
    )
    _MAX_UNITS = config.max_units_per_file


def _parse_file(rel: str) -> list[tuple[str, list[KernelUnit] | Skip]]:
    """The units of one entry file (or why it is skipped), then the files its reads refused
    (a link leaving the repository, a FIFO), each named as a skip."""
    assert _CONTEXT is not None, "worker not initialised"
    out: list[tuple[str, list[KernelUnit] | Skip]] = []
    try:
        units = units_for_entry_file(rel, _CONTEXT)
        if _MAX_UNITS and len(units) > _MAX_UNITS:
            out.append(
                (rel, Skip(rel, f"too many kernel units ({len(units)} > {_MAX_UNITS} per file limit)"))
            )
        else:
            out.append((rel, units))
    except UnparsableFile as exc:
        out.append((rel, Skip(rel, str(exc))))
    except Exception as exc:  # a bad file must never stop the ingest
        out.append((rel, Skip(rel, f"parser error: {type(exc).__name__}: {exc}")))
    out += [(skip.path, skip) for skip in REFUSED.drain()]
    return out


def parse_job(root: Path, files: list[str], source: SourceInfo, config: IngestConfig) -> Job:
    """What the parser workers of one ingest run."""
    return Job(_init_worker, (root, files, source, config), _parse_file, ("parsers.ingest",))


def parser_pool(root: Path, scan: RepoScan, source: SourceInfo, config: IngestConfig) -> WorkerPool:
    """Workers for `config.jobs` (one per core by default), each file under the config's limits."""
    jobs = config.jobs or os.cpu_count() or 1
    limits = Limits(config.file_timeout_s, config.worker_memory_mb)
    return WorkerPool(parse_job(root, scan.files, source, config), limits, jobs)


def parse_entry_files(
    rels: list[str],
    root: Path,
    scan: RepoScan,
    source: SourceInfo,
    config: IngestConfig,
    progress: Progress | None,
    pool: WorkerPool | None = None,
) -> list[tuple[str, list[KernelUnit] | Skip]]:
    """The units of each entry file in `rels` (or why it was skipped), each file parsed in a
    worker process under the config's limits: a crash or a limit skips that file alone."""
    if not rels:
        return []
    if pool is None:
        with parser_pool(root, scan, source, config) as own:
            return parse_entry_files(rels, root, scan, source, config, progress, own)
    return pool.run(rels, progress)


def ingest_directory(
    root: Path, source: SourceInfo, config: IngestConfig, progress: Progress | None = None
) -> IngestResult:
    """All kernel units under `root`. Headers that define an entry count only when no parsed
    entry file already includes them (their entries then belong to the including file)."""
    scan = scan_repository(root, config)
    result = IngestResult(files_seen=len(scan.files) + len(scan.skipped), skipped=list(scan.skipped))
    sources = [r for r in scan.candidates if not r.endswith(_HEADER_SUFFIXES)]
    headers = [r for r in scan.candidates if r.endswith(_HEADER_SUFFIXES)]
    with parser_pool(root, scan, source, config) as pool:
        outcomes = parse_entry_files(sources, root, scan, source, config, progress, pool)
        included = {inc for _, out in outcomes if isinstance(out, list) for u in out for inc in u.includes}
        prefixed = {h: posixpath.join(source.path_prefix, h) for h in headers}
        lone_headers = [h for h in headers if prefixed[h] not in included]
        outcomes += parse_entry_files(lone_headers, root, scan, source, config, progress, pool)
    named: set[tuple[str, str]] = set()  # a refused file read by several entries is named once
    for _, out in outcomes:
        if isinstance(out, Skip):
            if (out.path, out.reason) not in named:
                named.add((out.path, out.reason))
                result.skipped.append(out)
        elif out:
            result.entry_files += 1
            result.units.extend(out)
    result.units, result.skipped = keep_recordable(result.units, result.skipped)
    result.units.sort(key=lambda u: (u.path, u.kernel_name))
    return result


def keep_recordable(units: list[KernelUnit], skipped: list[Skip]) -> tuple[list[KernelUnit], list[Skip]]:
    """Units whose row fits the table schema; the others become skips with the reason, so one
    value that no column can hold never loses the run."""
    good, bad = recordable(KernelUnit, units)
    return good, skipped + [Skip(u.path, f"unrecordable unit ({u.kernel_name}: {why})") for u, why in bad]
