"""The ingest stage: resolve the source, run the parser, and hand back the source's rows, the
report `reports/ingest-<source>.json` and the typed run; `Stage.execute` writes and records them
(curate/stage.py). A corpus's entry files whose stored parse still holds are not parsed again
(the workspace's `cache/parse.sqlite`, parsers/cache.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from curate.errors import UserError
from curate.sources import benchmark_from_table, resolve_ingest_source
from curate.stage import Outputs, Stage
from curate.stages.ingest_outputs import IngestSummary, benchmark_outputs, corpus_outputs
from curate.workspace import Workspace
from parsers.benchmark import ingest_benchmark
from parsers.config import IngestConfig
from parsers.ingest import Progress, ingest_directory
from parsers.units import SourceInfo
from schemas import BenchmarkItem
from schemas.atomic import write_text_atomic

__all__ = ["INGEST", "IngestRequest", "IngestSummary", "run_ingest"]


def _table_benchmark(
    source: str, name: str, code_column: str, id_column: str | None, code_from: str | None = None
) -> list[BenchmarkItem]:
    try:
        return benchmark_from_table(
            source, name=name, code_column=code_column, id_column=id_column, code_from=code_from
        )
    except (ValueError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class IngestRequest:
    """What to ingest: the SOURCE argument and how to read it."""

    source: str
    name: str | None = None
    benchmark: bool = False
    code_column: str | None = None
    id_column: str | None = None
    code_from: str | None = None  # table benchmarks: extract code blocks from a text column


def _table(request: IngestRequest, name: str, config: IngestConfig) -> Outputs[IngestSummary]:
    source, code_column = request.source, request.code_column
    if not request.benchmark:
        raise UserError(
            f"{source} is a table; corpus sources are directories or git URLs (tables go with --benchmark)"
        )
    if not code_column:
        raise UserError(f"{source} is a table: say which column holds the kernel code with --code-column")
    items = _table_benchmark(source, name, code_column, request.id_column, request.code_from)
    if not items:
        raise UserError(f"{source} has no rows with code in column {code_column!r}; nothing to ingest")
    return benchmark_outputs(IngestSummary(name, files_seen=0, rows=len(items), kind="table"), items, config)


def _benchmark_tree(
    request: IngestRequest,
    name: str,
    root: Path,
    info: SourceInfo,
    config: IngestConfig,
    progress: Progress | None,
) -> Outputs[IngestSummary]:
    bench = ingest_benchmark(root, info, config, progress)
    if not bench.items:
        raise UserError(
            f"no benchmark items in {request.source} ({bench.files_seen} files seen): expected AscendC kernels "
            "(tasks/level<N>/<Category>/<Op>/answer/<k>/...) or PyTorch reference .py files"
        )
    summary = IngestSummary(
        name,
        files_seen=bench.files_seen,
        rows=len(bench.items),
        skipped=bench.skipped,
        kind=bench.kind,
        left_out=len(bench.left_out),
    )
    return benchmark_outputs(summary, bench.items, config)


def _run(
    ws: Workspace, config: IngestConfig, request: IngestRequest, progress: Progress | None = None
) -> Outputs[IngestSummary]:
    """resolve the source -> parse it (a table, a benchmark tree or a corpus) -> its outputs."""
    resolved = resolve_ingest_source(request.source, request.name, request.benchmark, request.code_column, ws)
    if resolved.is_table:
        return _table(request, resolved.name, config)
    assert resolved.root is not None and resolved.info is not None
    if request.benchmark:
        return _benchmark_tree(request, resolved.name, resolved.root, resolved.info, config, progress)
    result = ingest_directory(resolved.root, resolved.info, config, progress, ws.parse_cache)
    if not result.units:
        raise UserError(
            f"no AscendC kernel entry (a __global__ __aicore__ function definition) found in {request.source} "
            f"({result.files_seen} files seen, {len(result.skipped)} skipped); nothing was written"
        )
    out = corpus_outputs(resolved.name, result, config)
    out.summary.fingerprint = result.fingerprint or ""
    if (
        not result.parsed
        and result.fingerprint
        and _last_written(ws, resolved.name) == _written_mark(ws, out.summary.fingerprint)
    ):
        out.tables = []  # the table holds these rows already: nothing was parsed, nothing changed
    out.on_written = lambda: _note_written(ws, out.summary)  # under the lock that wrote the table
    return out


# ---- a corpus's rows already in the units table -------------------------------------------
# A re-ingest of an unchanged source gives the rows the table holds; rewriting it (read every
# row, write them all) was most of that re-ingest's wall time (issue 30). After each corpus
# ingest the workspace notes, per source, the fingerprint of the parse outcomes its rows came
# from and the table file's stat; a run that parsed nothing, with the same fingerprint and the
# table untouched since (any other write changes its stat), leaves the table as it is.


def _marks_path(ws: Workspace) -> Path:
    return ws.parse_cache.with_name("units-written.json")


def _table_stat(path: Path) -> str:
    try:
        st = path.stat()
    except OSError:
        return ""
    return f"{st.st_size}:{st.st_mtime_ns}:{st.st_ino}"


def _written_mark(ws: Workspace, fingerprint: str) -> dict[str, str]:
    return {"fingerprint": fingerprint, "table": _table_stat(ws.units)}


def _marks(ws: Workspace) -> dict[str, object]:
    """Every source's mark ({} when none was written, or the file is not one we wrote)."""
    try:
        marks = json.loads(_marks_path(ws).read_text())
    except (OSError, ValueError):
        return {}
    return marks if isinstance(marks, dict) else {}


def _last_written(ws: Workspace, source: str) -> dict[str, str] | None:
    mark = _marks(ws).get(source)
    return mark if isinstance(mark, dict) and mark.get("table") else None


def _note_written(ws: Workspace, summary: IngestSummary) -> None:
    """After the stage wrote (or kept) the corpus's rows: the mark a later run compares with."""
    marks = _marks(ws)
    if summary.fingerprint:
        marks[summary.source] = _written_mark(ws, summary.fingerprint)
    else:
        marks.pop(summary.source, None)
    write_text_atomic(_marks_path(ws), json.dumps(marks, indent=1) + "\n")


INGEST: Stage[Outputs[IngestSummary]] = Stage(
    "ingest",
    _run,
    config=IngestConfig,
    writes=("units", "benchmark"),
    commands=(("benchmark", "ingest --benchmark"),),
)


def run_ingest(
    ws: Workspace, request: IngestRequest, config: IngestConfig, progress: Progress | None = None
) -> tuple[IngestSummary, Path]:
    """Ingest one source into the workspace: rows, run record and report. Returns the summary and
    the report path."""
    out = INGEST.execute(ws, config, request, progress)
    summary = out.summary
    if summary.kind == "corpus":
        summary.table = out.written.get("units", ws.units)  # absent: the rows were there already
    else:
        summary.table = out.written["benchmark"]
    return summary, out.written[next(iter(out.reports))]  # the one report: ingest-<source>.json
