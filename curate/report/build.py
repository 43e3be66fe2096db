"""Write the report: gather the workspace, draw the figures, render the page."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from curate.errors import UserError
from curate.workspace import Workspace

DEFAULT_NAME = "report.html"


@dataclass(slots=True)
class ReportOutput:
    html: Path
    figures: list[Path]
    bytes: int
    seconds: float


def write_report(
    ws: Workspace, out: Path | None = None, max_leak_rows: int = 500, max_leak_views: int = 40
) -> ReportOutput:
    """The page at `out` (default WS/reports/report.html) and the figures in WS/reports/figures/."""
    if not ws.root.is_dir():
        raise UserError(
            f"workspace {ws.root} does not exist: run `curate ingest SOURCE --workspace {ws.root}`"
        )
    if not ws.units.exists() and not ws.benchmark.exists():
        raise UserError(f"{ws.root} holds no tables; run `curate ingest SOURCE --workspace {ws.root}` first")
    if max_leak_rows < 0 or max_leak_views < 0:
        raise UserError("--max-leaks and --max-views must be >= 0")
    started = time.perf_counter()
    # matplotlib is imported here, not at the top of the CLI: `curate --help` must not pay for it.
    from curate.report.charts import draw
    from curate.report.gather import gather
    from curate.report.page import render

    data = gather(ws, max_leak_rows, max_leak_views)
    figures_dir = ws.reports / "figures"
    charts = draw(data, figures_dir)
    target = out or ws.reports / DEFAULT_NAME
    if target.is_dir():
        target = target / DEFAULT_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    text = render(data, charts)
    target.write_text(text, encoding="utf-8")
    files = sorted(figures_dir.glob("*.png")) + sorted(figures_dir.glob("*.svg"))
    return ReportOutput(target, files, len(text.encode("utf-8")), time.perf_counter() - started)
