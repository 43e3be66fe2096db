"""`curate report`: one self-contained HTML page about a workspace (composition, funnel, leaks,
verification) and the same figures as PNG/SVG files for the dataset card.

`gather` reads the workspace tables into plain records (`ReportData`), `charts` draws them with
matplotlib (imported only there, so `curate --help` never pays for it), `page` writes the HTML.
"""

from curate.report.build import ReportOutput, write_report

__all__ = ["ReportOutput", "write_report"]
