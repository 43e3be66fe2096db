"""`curate report`: one self-contained HTML page about a workspace (composition, funnel, leaks,
verification) and the same figures as PNG/SVG files for the dataset card.

`gather` reads the workspace tables into plain records (`ReportData`), `charts` draws them with
matplotlib (imported only there, so `curate --help` never pays for it), `page` writes the HTML.

The leakage reports of `dedup` and `audit` (reports/leakage.json/.md) are rendered here too
(`leakage`, `task_leaks`): `dedup` decides which units leak, curate says so to people.
"""

from curate.report.build import ReportOutput, write_report

__all__ = ["ReportOutput", "write_report"]
