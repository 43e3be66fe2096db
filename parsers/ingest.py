"""Ingesting a repository: walk it, find the kernel entry files, parse them in parallel, once.

The walk (parsers/scan.py) reads every source file once, to find entries and to follow includes;
only files that define a `__global__` kernel are parsed. An entry file whose stored parse still
holds (parsers/cache.py: same parser, same options, same file list, and every file it read
unchanged) is not parsed again. The others are parsed over worker processes
(parsers/pool.py), each with its own libclang index, one file at a time under time and memory
limits. A file that fails for any reason (a parser error, a crash, a limit) becomes a counted
skip, never a crash.
"""

from __future__ import annotations

import contextlib
import gc
import os
import posixpath
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsers.cache import DepChecker, Deps, ParseCache, ParsedFile, Plan, file_digest, listing_digest, stat_of
from parsers.clang_frontend import UnparsableFile
from parsers.config import IngestConfig
from parsers.filememo import FileMemo
from parsers.files import REFUSED, Folders, Skip
from parsers.licenses import LICENSE_FILE_NAMES
from parsers.pool import Job, Limits, Outcome, Progress, WorkerPool, warm_up
from parsers.scan import HEADER_SUFFIXES, RepoScan, scan_repository
from parsers.units import DEFAULT_DEFINES, RepoContext, SourceInfo, units_for_entry_file
from schemas import KernelUnit
from schemas.ascendc.includes import RepoIndex

__all__ = ["IngestResult", "RepoScan", "ingest_directory", "parse_entry_files", "scan_repository"]


@dataclass
class IngestResult:
    units: list[KernelUnit] = field(default_factory=list)
    files_seen: int = 0
    entry_files: int = 0
    skipped: list[Skip] = field(default_factory=list)
    partial: int = 0  # units whose parse had errors
    parsed: int = 0  # entry files parsed by libclang in this run
    reused: int = 0  # entry files whose stored parse still held (parsers/cache.py)
    # a digest of every outcome the parse cache gave or took (None without a cache): a run that
    # parsed nothing and has the fingerprint of the run that wrote the table has its units
    fingerprint: str | None = None


# ---- worker side -------------------------------------------------------------------------


@dataclass
class _RecordingContext(RepoContext):
    """The repository as a worker reads it, noting what each entry file's parse read (the
    dependencies its stored outcome is checked against)."""

    deps: Deps = field(default_factory=Deps)
    digests: dict[str, str | None] = field(default_factory=dict)
    stats: dict[str, str] = field(default_factory=dict)

    def begin(self) -> None:
        self.deps = Deps()
        self.docs = None  # the finder remembers folders: a fresh one per entry notes its reads

    def note(self, rel: str) -> None:
        if rel not in self.digests:
            self.stats[rel] = stat_of(os.path.join(self.root, rel))  # before the read
            self.digests[rel] = file_digest(self.root, rel)
        self.deps.reads[rel] = self.digests[rel]
        self.deps.stats[rel] = self.stats[rel]

    def read(self, rel: str) -> str | None:
        self.note(rel)
        return super().read(rel)

    def list_dir(self, rel: str) -> list[str]:
        names = super().list_dir(rel)
        self.deps.listings[rel] = listing_digest(names)
        return names

    def note_licence_files(self, rel: str) -> None:
        """The licence files a unit's licence may come from: at or above its folder (read by
        `LicenseFiles` itself, which remembers folders across entries)."""
        folder = posixpath.dirname(rel)
        while True:
            for name in LICENSE_FILE_NAMES:
                self.note(posixpath.join(folder, name))
            if not folder:
                return
            folder = posixpath.dirname(folder)


_CONTEXT: _RecordingContext | None = None
# What the workers' fork server imports once: the parser, the Arrow schemas that check each unit
# (`recordable`: imported by the workers alone, a command that parses nothing needs no Arrow),
# and pandas, which pyarrow imports when a worker first builds a table.
_PRELOAD = ("parsers.ingest", "schemas.arrow", "pandas")
_MAX_UNITS = 0


def _init_worker(root: Path, files: list[str], source: SourceInfo, config: IngestConfig) -> None:
    global _CONTEXT, _MAX_UNITS
    _CONTEXT = _RecordingContext(
        root=root,
        index=RepoIndex.build(files),
        source=source,
        max_diagnostics=config.max_diagnostics,
        std=config.std,
    )
    _MAX_UNITS = config.max_units_per_file


def _parse_file(rel: str) -> ParsedFile:
    """The units of one entry file (or why it is skipped), then the files its reads refused
    (a link leaving the repository, a FIFO), each named as a skip; with what the parse read
    when the outcome is units (a skip is not stored: the next run tries the file again)."""
    ctx = _CONTEXT
    assert ctx is not None, "worker not initialised"
    ctx.begin()
    out: list[tuple[str, list[KernelUnit] | Skip]] = []
    deps: Deps | None = None
    unfit: list[tuple[int, str]] = []
    try:
        units = units_for_entry_file(rel, ctx)
        if _MAX_UNITS and len(units) > _MAX_UNITS:
            out.append(
                (rel, Skip(rel, f"too many kernel units ({len(units)} > {_MAX_UNITS} per file limit)"))
            )
        else:
            out.append((rel, units))
            ctx.note_licence_files(rel)
            # Units whose row no column can hold become skips in the command (one bad value never
            # loses the run); a file is stored only when all its units fit.
            from schemas.arrow import recordable  # preloaded by the fork server

            bad = recordable(KernelUnit, units)[1] if units else []
            at = {id(u): i for i, u in enumerate(units)}
            unfit = [(at[id(u)], why) for u, why in bad]
            deps = None if unfit else ctx.deps
    except UnparsableFile as exc:
        out.append((rel, Skip(rel, str(exc))))
    except Exception as exc:  # a bad file must never stop the ingest
        out.append((rel, Skip(rel, f"parser error: {type(exc).__name__}: {exc}")))
    out += [(skip.path, skip) for skip in REFUSED.drain()]
    return ParsedFile(out, deps, unfit)


# ---- command side ------------------------------------------------------------------------


def parse_job(root: Path, files: list[str], source: SourceInfo, config: IngestConfig) -> Job:
    """What the parser workers of one ingest run."""
    return Job(_init_worker, (root, files, source, config), _parse_file, _PRELOAD)


def parser_pool(root: Path, scan: RepoScan, source: SourceInfo, config: IngestConfig) -> WorkerPool:
    """Workers for `config.jobs` (one per core by default), each file under the config's limits."""
    jobs = config.jobs or os.cpu_count() or 1
    limits = Limits(config.file_timeout_s, config.worker_memory_mb)
    return WorkerPool(parse_job(root, scan.files, source, config), limits, jobs)


def _units_in(result: Any) -> int:
    """The units a worker result holds (for the progress line)."""
    return (
        sum(len(o) for _, o in result.outcomes if isinstance(o, list))
        if isinstance(result, ParsedFile)
        else 0
    )


def _flatten(results: list[Outcome]) -> list[tuple[str, Any]]:
    """(path, units or Skip) of each worker result; a worker that died on a file gave a Skip."""
    return [o for rel, r in results for o in (r.outcomes if isinstance(r, ParsedFile) else [(rel, r)])]


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
    return _flatten(pool.run(rels, progress, _units_in))


def ingest_directory(
    root: Path,
    source: SourceInfo,
    config: IngestConfig,
    progress: Progress | None = None,
    cache_path: Path | None = None,
) -> IngestResult:
    """All kernel units under `root`, in one pass of the parser pool over the entry files whose
    stored parse (in the cache at `cache_path`; None: no cache) does not hold. Headers that
    define an entry count only when no entry file includes them (their entries then belong to
    the including file)."""
    with _collector_paused():
        return _ingest(root, source, config, progress, cache_path)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a run builds its results: the objects it makes (stored
    units unpickled, scan rows, worker results) form no cycles, yet their number set off
    collection after collection (a third of unpickling the stored units of ops-math)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _ingest(
    root: Path, source: SourceInfo, config: IngestConfig, progress: Progress | None, cache_path: Path | None
) -> IngestResult:
    memo = FileMemo(cache_path.with_name("files.sqlite") if cache_path else None).load()
    # A tree that changed is likely to need parsing: the workers' server starts beside the scan.
    stats: dict[str, str] = {}  # the stat the walk took of each source file
    folders: Folders = {}  # the entries of each folder the walk listed
    scan = scan_repository(root, config, memo, lambda: warm_up(_PRELOAD), stats, folders)
    # Everything every entry's outcome depends on besides the files its parse reads.
    shared = (config.std, config.max_diagnostics, config.max_units_per_file, config.max_file_mb)
    context = (shared, sorted(config.exclude_dirs), source, DEFAULT_DEFINES, scan.files)
    cache = ParseCache(cache_path)
    checker = DepChecker(root, memo, stats, folders)
    plan = cache.plan(context, scan.candidates, scan.sources + scan.lone_headers, checker)
    job = Job(_init_worker, (root, scan.files, source, config), _parse_file, _PRELOAD)
    limits = Limits(config.file_timeout_s, config.worker_memory_mb)
    with WorkerPool(job, limits, config.jobs or os.cpu_count() or 1) as pool:
        parsed = pool.run(plan.to_parse, progress, _units_in)
        return _gather(root, scan, source, plan, parsed, pool, cache, checker)


def _gather(
    root: Path,
    scan: RepoScan,
    source: SourceInfo,
    plan: Plan,
    parsed: list[Outcome],
    pool: WorkerPool,
    cache: ParseCache,
    checker: DepChecker,
) -> IngestResult:
    """The result of a run from the stored outcomes and the parsed ones; the parsed ones are
    stored. A header a source file reaches but whose units did not claim it (that file failed or
    held no entry after all) is parsed on its own, as it would have been alone."""
    stored, keys = plan.stored, plan.keys
    outcomes = [o for rel in stored for o in stored[rel]] + _flatten(parsed)
    included = {inc for _, out in outcomes if isinstance(out, list) for u in out for inc in u.includes}
    unclaimed = [
        h
        for h in scan.candidates
        if h in scan.reached
        and h.endswith(HEADER_SUFFIXES)
        and posixpath.join(source.path_prefix, h) not in included
    ]
    if unclaimed:
        late = cache.lookup_all({rel: keys[rel] for rel in unclaimed}, checker)
        more = pool.run([rel for rel in unclaimed if rel not in late])
        stored, parsed = stored | late, parsed + more
        outcomes += [o for rel in late for o in late[rel]] + _flatten(more)
    # Units whose row no column can hold (the workers checked them) become skips with the reason.
    unfit = {
        id(r.outcomes[0][1][i]): why for _, r in parsed if isinstance(r, ParsedFile) for i, why in r.unfit
    }
    result = IngestResult(files_seen=len(scan.files) + len(scan.skipped), skipped=list(scan.skipped))
    result.parsed, result.reused = len(parsed), len(stored)
    named: set[tuple[str, str]] = set()  # a refused file read by several entries is named once
    for _, out in outcomes:
        if isinstance(out, Skip):
            if (out.path, out.reason) not in named:
                named.add((out.path, out.reason))
                result.skipped.append(out)
        elif out:
            result.entry_files += 1
            for u in out:
                if id(u) in unfit:
                    result.skipped.append(
                        Skip(u.path, f"unrecordable unit ({u.kernel_name}: {unfit[id(u)]})")
                    )
                else:
                    result.units.append(u)
    result.units.sort(key=lambda u: (u.path, u.kernel_name))
    result.partial = sum(1 for u in result.units if u.parse_status == "partial")
    cache.store(keys, parsed, root, checker.memo)  # a file with an unfit unit carries no dependencies
    checker.memo.save()
    result.fingerprint = cache.fingerprint() if cache.path is not None else None
    return result
