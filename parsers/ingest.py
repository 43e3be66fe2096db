"""Ingesting a repository: walk it, find the kernel entry files, parse them in parallel.

The walk reads every source file once (to find entries and to index includes); only files
that define a `__global__` kernel are parsed. Parsing runs over worker processes, each with
its own libclang index. A file that fails for any reason becomes a counted skip, never a crash.
"""

from __future__ import annotations

import multiprocessing
import os
import posixpath
import re
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from parsers.config import ENTRY_SUFFIXES, IngestConfig
from parsers.files import Skip, iter_source_files, read_source
from parsers.units import RepoContext, SourceInfo, units_for_entry_file
from schemas import KernelUnit, recordable
from schemas.ascendc import INCLUDE_RE
from schemas.ascendc.includes import RepoIndex

_ENTRY_RE = re.compile(r"\b__global__\b|\bCATLASS_GLOBAL\b")
_HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inc")
Progress = Callable[[int, int], None]


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
    for item in iter_source_files(root, config.exclude_dirs):
        if isinstance(item, Skip):
            skipped.append(item)
            continue
        rel = item.relative_to(root).as_posix()
        text = read_source(item, root, max_bytes)
        if isinstance(text, Skip):
            skipped.append(text)
            continue
        files.append(rel)
        if rel.endswith(ENTRY_SUFFIXES) and _ENTRY_RE.search(text):
            candidates.append(rel)
        for m in INCLUDE_RE.finditer(text):
            name = m.group(2).strip()
            includes.setdefault(posixpath.basename(name), []).append((rel, name, m.group(1) == "<"))
    candidates = _promote_header_includers(candidates, includes, RepoIndex.build(files))
    return RepoScan(files, candidates, skipped)


# ---- worker side -------------------------------------------------------------------------

_CONTEXT: RepoContext | None = None


def _init_worker(root: Path, files: list[str], source: SourceInfo, config: IngestConfig) -> None:
    global _CONTEXT
    _CONTEXT = RepoContext(
        root=root,
        index=RepoIndex.build(files),
        source=source,
        max_diagnostics=config.max_diagnostics,
        std=config.std,
    )


def _parse_batch(rels: list[str]) -> list[tuple[str, list[KernelUnit] | Skip]]:
    assert _CONTEXT is not None, "worker not initialised"
    out: list[tuple[str, list[KernelUnit] | Skip]] = []
    for rel in rels:
        try:
            out.append((rel, units_for_entry_file(rel, _CONTEXT)))
        except Exception as exc:  # a bad file must never stop the ingest
            out.append((rel, Skip(rel, f"parser error: {type(exc).__name__}: {exc}")))
    return out


def _batches(items: list[str], size: int) -> Iterable[list[str]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


def parse_entry_files(
    rels: list[str],
    root: Path,
    scan: RepoScan,
    source: SourceInfo,
    config: IngestConfig,
    progress: Progress | None,
) -> list[tuple[str, list[KernelUnit] | Skip]]:
    """The units of each entry file in `rels` (or why it was skipped), over `config.jobs`
    processes (one per core by default); small inputs are parsed in this process."""
    jobs = config.jobs or os.cpu_count() or 1
    init_args = (root, scan.files, source, config)
    results: list[tuple[str, list[KernelUnit] | Skip]] = []
    if jobs <= 1 or len(rels) < 8:
        _init_worker(*init_args)
        for batch in _batches(rels, 1):
            results += _parse_batch(batch)
            if progress:
                progress(len(results), len(rels))
        return results
    size = max(1, min(16, len(rels) // (jobs * 4)))
    # Workers start from a fresh server process, not a fork of this one: a fork copies the
    # caller's threads' state (a Ray or gRPC client in the same process made forked workers
    # crash in libclang parses, and their files were lost as "worker crashed").
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["parsers.ingest"])  # each worker forks with the parser loaded
    with ProcessPoolExecutor(jobs, context, initializer=_init_worker, initargs=init_args) as pool:
        futures = [(batch, pool.submit(_parse_batch, batch)) for batch in _batches(rels, size)]
        for batch, future in futures:
            try:
                results += future.result()
            except BrokenProcessPool:
                results += [(rel, Skip(rel, "libclang worker crashed")) for rel in batch]
            if progress:
                progress(len(results), len(rels))
    return results


def ingest_directory(
    root: Path, source: SourceInfo, config: IngestConfig, progress: Progress | None = None
) -> IngestResult:
    """All kernel units under `root`. Headers that define an entry count only when no parsed
    entry file already includes them (their entries then belong to the including file)."""
    scan = scan_repository(root, config)
    result = IngestResult(files_seen=len(scan.files) + len(scan.skipped), skipped=list(scan.skipped))
    sources = [r for r in scan.candidates if not r.endswith(_HEADER_SUFFIXES)]
    headers = [r for r in scan.candidates if r.endswith(_HEADER_SUFFIXES)]
    outcomes = parse_entry_files(sources, root, scan, source, config, progress)
    included = {inc for _, out in outcomes if isinstance(out, list) for u in out for inc in u.includes}
    prefixed = {h: posixpath.join(source.path_prefix, h) for h in headers}
    lone_headers = [h for h in headers if prefixed[h] not in included]
    outcomes += parse_entry_files(lone_headers, root, scan, source, config, progress)
    for _, out in outcomes:
        if isinstance(out, Skip):
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
