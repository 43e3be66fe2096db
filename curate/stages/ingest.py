"""The ingest stage: resolve the source, run the parser, replace that source's rows, record the
run and write `reports/ingest-<source>.json`."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from curate.errors import UserError
from curate.sources import benchmark_from_table, resolve_ingest_source
from curate.stage import Stage
from curate.workspace import Workspace
from parsers.benchmark import ingest_benchmark
from parsers.config import IngestConfig
from parsers.files import Skip
from parsers.ingest import Progress, ingest_directory
from schemas import BenchmarkItem, KernelUnit
from schemas.runs import IngestRun


@dataclass
class IngestSummary:
    source: str
    table: Path
    files_seen: int = 0
    rows: int = 0  # units, or benchmark items
    entry_files: int = 0
    partial: int = 0
    skipped: list[Skip] = field(default_factory=list)
    kind: str = "corpus"
    documented: int = 0  # units whose operator documentation was found (function or parameters read)
    left_out: int = 0  # code files of a kernel folder that no benchmark item holds

    def report(self) -> dict[str, object]:
        return {
            "source": self.source,
            "kind": self.kind,
            "files_seen": self.files_seen,
            "rows": self.rows,
            "entry_files": self.entry_files,
            "partial": self.partial,
            "documented": self.documented,
            "left_out": self.left_out,
            "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
        }

    def line(self) -> str:
        reasons = Counter(s.reason.split(" (")[0] for s in self.skipped)
        skipped = ", ".join(f"{n} {r}" for r, n in reasons.most_common())
        what = "units" if self.kind == "corpus" else f"benchmark items ({self.kind})"
        n, own = self.left_out, "its" if self.left_out == 1 else "their"
        left_out = f", {n} code file{'s' * (n != 1)} left out (no kernel of {own} own, included by none)"
        partial = (
            f", {self.partial} partial parses, {self.documented} with operator documentation"
            if self.kind == "corpus"
            else ""
        )
        return (
            f"ingest {self.source}: {self.files_seen} files seen, {self.rows} {what}"
            + (f" from {self.entry_files} entry files" if self.kind == "corpus" else "")
            + (left_out if n else "")
            + partial
            + f", {len(self.skipped)} skipped"
            + (f" ({skipped})" if skipped else "")
            + f" -> {self.table}"
        )


def _table_benchmark(
    source: str, name: str, code_column: str, id_column: str | None, code_from: str | None = None
) -> list[BenchmarkItem]:
    try:
        return benchmark_from_table(
            source, name=name, code_column=code_column, id_column=id_column, code_from=code_from
        )
    except (ValueError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from None


def _ingest(
    ws: Workspace, request: IngestRequest, config: IngestConfig, progress: Progress | None
) -> IngestSummary:
    """resolve the source -> parse it (tables, benchmark trees or a corpus) -> replace its rows."""
    source, benchmark, code_column = request.source, request.benchmark, request.code_column
    resolved = resolve_ingest_source(source, request.name, benchmark, code_column, ws)
    name = resolved.name
    if resolved.is_table:
        if not benchmark:
            raise UserError(
                f"{source} is a table; corpus sources are directories or git URLs (tables go with --benchmark)"
            )
        if not code_column:
            raise UserError(f"{source} is a table: say which column holds the kernel code with --code-column")
        items = _table_benchmark(source, name, code_column, request.id_column, request.code_from)
        if not items:
            raise UserError(f"{source} has no rows with code in column {code_column!r}; nothing to ingest")
        table = ws.replace_rows("benchmark", BenchmarkItem, "benchmark", name, items)
        return IngestSummary(name, table, files_seen=0, rows=len(items), kind="table")
    assert resolved.root is not None and resolved.info is not None
    root, info = resolved.root, resolved.info
    if benchmark:
        bench = ingest_benchmark(root, info, config, progress)
        if not bench.items:
            raise UserError(
                f"no benchmark items in {source} ({bench.files_seen} files seen): expected AscendC kernels "
                "(tasks/level<N>/<Category>/<Op>/answer/<k>/...) or PyTorch reference .py files"
            )
        table = ws.replace_rows("benchmark", BenchmarkItem, "benchmark", name, bench.items)
        return IngestSummary(
            name,
            table,
            bench.files_seen,
            len(bench.items),
            skipped=bench.skipped,
            kind=bench.kind,
            left_out=len(bench.left_out),
        )
    result = ingest_directory(root, info, config, progress)
    partial = result.partial
    if not result.units:
        raise UserError(
            f"no AscendC kernel entry (a __global__ __aicore__ function definition) found in {source} "
            f"({result.files_seen} files seen, {len(result.skipped)} skipped); nothing was written"
        )
    units: list[KernelUnit] = result.units
    table = ws.replace_rows("units", KernelUnit, "source", name, units)
    documented = 0  # units whose operator documentation was found
    for unit in units:
        documented += unit.doc is not None and bool(unit.doc.function or unit.doc.params)
    return IngestSummary(
        name,
        table,
        result.files_seen,
        len(units),
        result.entry_files,
        partial,
        result.skipped,
        documented=documented,
    )


@dataclass(frozen=True, slots=True)
class IngestRequest:
    """What to ingest: the SOURCE argument and how to read it."""

    source: str
    name: str | None = None
    benchmark: bool = False
    code_column: str | None = None
    id_column: str | None = None
    code_from: str | None = None  # table benchmarks: extract code blocks from a text column


def _run(
    ws: Workspace, config: IngestConfig, request: IngestRequest, progress: Progress | None = None
) -> tuple[IngestSummary, Path]:
    summary = _ingest(ws, request, config, progress)
    return summary, ws.write_ingest_report(summary.source, summary.report())


def _record(config: IngestConfig, outcome: tuple[IngestSummary, Path]) -> IngestRun:
    summary = outcome[0]
    return IngestRun(
        config=dataclasses.asdict(config),
        source=summary.source,
        benchmark=summary.kind != "corpus",
        kind=summary.kind,
        files_seen=summary.files_seen,
        rows=summary.rows,
        partial=summary.partial,
        skipped=len(summary.skipped),
        documented=summary.documented,
    )


INGEST: Stage[tuple[IngestSummary, Path]] = Stage(
    "ingest",
    _run,
    config=IngestConfig,
    writes=("units", "benchmark"),
    record=_record,
    commands=(("benchmark", "ingest --benchmark"),),
)


def run_ingest(
    ws: Workspace, request: IngestRequest, config: IngestConfig, progress: Progress | None = None
) -> tuple[IngestSummary, Path]:
    """Ingest one source into the workspace: rows, run record and report. Returns the summary and
    the report path."""
    return INGEST.execute(ws, config, request, progress)
