"""The figures, drawn with matplotlib: each one as inline SVG for the page and as PNG/SVG files
for the dataset card.

matplotlib renders SVG and PNG itself, in this process, with fonts it ships: nothing to fetch
and no JavaScript engine (README, "The report", says why not Vega-Lite). SVG text stays text
(`svg.fonttype = none`), which keeps each chart a few KB; the PNGs are rasterised with the bundled
DejaVu Sans. Imported only by `curate report`.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from curate.report.gather import ReportData

VERDICT_COLOURS = {"accepted": "#2e7d32", "rejected": "#ef6c00", "failed": "#c62828", "pending": "#9e9e9e"}
BAR = "#3f6fb5"
REMOVED = "#b0bec5"
MIN_BAR_SLOTS = 5  # a chart of two bars draws them as thin as a chart of five
_STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "curate-report",  # the same ids on every run: a report diff shows data changes only
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
    "axes.titleweight": "bold",
}


@dataclass(slots=True)
class Chart:
    name: str  # file stem: composition, sizes, funnel, ...
    title: str
    svg: str  # inline <svg> element, no XML prologue
    png: bytes


def _svg(fig: Figure) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = text[text.index("<svg") :]  # drop the XML declaration and DOCTYPE (a DTD address)
    return re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)


def _png(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return buffer.getvalue()


def _barh(
    ax: plt.Axes, labels: list[str], values: list[int], colour: str = BAR, slots: int = MIN_BAR_SLOTS
) -> None:
    """Horizontal bars, first label on top, each bar labelled with its count; at least `slots`
    bar heights tall, so that two bars are drawn as thin as five."""
    positions = list(range(len(labels)))[::-1]
    ax.barh(positions, values, color=colour)
    ax.set_yticks(positions, [_short(label) for label in labels])
    top = max(values, default=0) or 1
    for y, v in zip(positions, values, strict=True):
        ax.text(v + top * 0.01, y, f"{v:,}", va="center", fontsize=8)
    ax.set_xlim(0, top * 1.18)
    ax.set_ylim(len(labels) - 0.5 - max(len(labels), slots), len(labels) - 0.5)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(axis="x", labelsize=7)


def _short(label: str, width: int = 28) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"


def composition(data: ReportData) -> Figure | None:
    dims = [d for d, rows in data.composition.items() if rows]
    if not dims:
        return None
    cols = 3
    rows = [dims[i : i + cols] for i in range(0, len(dims), cols)]
    # Each row of charts is as tall as its longest list of labels (a row of short lists stays short).
    slots = [max(MIN_BAR_SLOTS, *(len(data.composition[d]) for d in row)) for row in rows]
    fig = plt.figure(figsize=(11, sum(0.2 * s + 0.9 for s in slots)))
    grid = fig.add_gridspec(len(rows), cols, height_ratios=[0.2 * s + 0.9 for s in slots])
    for r, row in enumerate(rows):
        for c, dim in enumerate(row):
            ax = fig.add_subplot(grid[r, c])
            labels = [label for label, _ in data.composition[dim]]
            _barh(ax, labels, [n for _, n in data.composition[dim]], slots=slots[r])
            ax.set_title(f"units by {dim.replace('_', ' ')}", loc="left")
    fig.tight_layout()
    return fig


def sizes(data: ReportData) -> Figure | None:
    values = [max(1, v) for v in data.sizes]
    if not values:
        return None
    fig, ax = plt.subplots(figsize=(8, 2.8))
    top = max(values)
    low = math.floor(8 * math.log10(min(values)))
    bins = [10 ** (i / 8) for i in range(low, math.ceil(8 * math.log10(top)) + 2)]
    ax.hist(values, bins=bins, color=BAR)
    ax.set_xscale("log")
    ax.set_xlabel("assembled lines per unit (log scale)")
    ax.set_ylabel("units")
    limit = data.max_unit_lines
    if limit:
        over = sum(1 for v in values if v > limit)
        ax.axvline(limit, color=VERDICT_COLOURS["failed"], linestyle="--", linewidth=1.2)
        ax.text(
            limit,
            ax.get_ylim()[1] * 0.92,
            f" max_unit_lines={limit:,}: {over:,} units over",
            color=VERDICT_COLOURS["failed"],
            fontsize=8,
        )
    ordered = sorted(values)
    median = ordered[len(ordered) // 2]
    ax.set_title(f"unit size: {len(values):,} units, median {median:,} lines, max {top:,}", loc="left")
    fig.tight_layout()
    return fig


def funnel(data: ReportData) -> Figure | None:
    steps = [s for s in data.funnel if s.remaining is not None]
    if not steps:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(steps) + 0.9))
    labels = [s.name for s in steps]
    values = [int(s.remaining or 0) for s in steps]
    _barh(ax, labels, values)
    ax.set_title("funnel: units left after each step", loc="left")
    ax.set_xlabel("units")
    fig.tight_layout()
    return fig


def rejections(data: ReportData) -> Figure | None:
    v = data.verification
    if v is None or not v.checks:
        return None
    checks = v.checks[:14]
    fig, ax = plt.subplots(figsize=(8, 0.35 * len(checks) + 1.0))
    positions = list(range(len(checks)))[::-1]
    ax.barh([p + 0.2 for p in positions], [c.units for c in checks], 0.4, color=VERDICT_COLOURS["rejected"])
    ax.barh([p - 0.2 for p in positions], [c.attempts for c in checks], 0.4, color=REMOVED)
    ax.set_yticks(positions, [_short(c.check, 40) for c in checks])
    ax.legend(
        ["units rejected (final answer)", "rejected attempts (all rounds)"], fontsize=7, loc="lower right"
    )
    ax.set_title("verifier rejections by check", loc="left")
    fig.tight_layout()
    return fig


def acceptance(data: ReportData) -> Figure | None:
    v = data.verification
    if v is None or not v.by_category:
        return None
    categories = sorted({c for c, _, _ in v.by_category})
    counts = {(c, verdict): n for c, verdict, n in v.by_category}
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(categories) + 1.1))
    positions = list(range(len(categories)))[::-1]
    left = [0] * len(categories)
    for verdict, colour in VERDICT_COLOURS.items():
        widths = [counts.get((c, verdict), 0) for c in categories]
        if any(widths):
            ax.barh(positions, widths, left=left, color=colour, label=verdict)
            left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_yticks(positions, [_short(c) for c in categories])
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("verdicts per category (annotated units)", loc="left")
    fig.tight_layout()
    return fig


def rounds(data: ReportData) -> Figure | None:
    v = data.verification
    if v is None or not v.rounds:
        return None
    most = max(r for _, r, _ in v.rounds)
    xs = list(range(0 if any(r == 0 for _, r, _ in v.rounds) else 1, most + 1))
    fig, ax = plt.subplots(figsize=(5.5, 2.6))
    bottom = [0] * len(xs)
    for verdict, colour in VERDICT_COLOURS.items():
        heights = [sum(n for vv, r, n in v.rounds if vv == verdict and r == x) for x in xs]
        if any(heights):
            ax.bar(xs, heights, bottom=bottom, color=colour, label=verdict)
            bottom = [a + b for a, b in zip(bottom, heights, strict=True)]
    ax.set_xticks(xs)
    ax.set_xlabel("teacher rounds (0 = no answer judged, 1 = first answer, then one per feedback)")
    ax.set_ylabel("units")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("feedback rounds per unit", loc="left")
    fig.tight_layout()
    return fig


FIGURES: list[tuple[str, str, Callable[[ReportData], Figure | None]]] = [
    ("funnel", "Funnel", funnel),
    ("composition", "Composition", composition),
    ("sizes", "Unit size", sizes),
    ("rejections", "Rejections by check", rejections),
    ("acceptance", "Acceptance per category", acceptance),
    ("rounds", "Feedback rounds", rounds),
]


def draw(data: ReportData, figures_dir: Path | None) -> dict[str, Chart]:
    """Every figure that has data, as SVG and PNG (written to `figures_dir` when given)."""
    charts: dict[str, Chart] = {}
    with plt.rc_context(_STYLE):  # type: ignore[arg-type]
        for name, title, make in FIGURES:
            fig = make(data)
            if fig is None:
                continue
            try:
                charts[name] = Chart(name, title, _svg(fig), _png(fig))
            finally:
                plt.close(fig)
    if figures_dir is not None:
        figures_dir.mkdir(parents=True, exist_ok=True)
        for stale in [*figures_dir.glob("*.svg"), *figures_dir.glob("*.png")]:
            if stale.stem not in charts:
                stale.unlink()
        for chart in charts.values():
            (figures_dir / f"{chart.name}.svg").write_text(chart.svg, encoding="utf-8")
            (figures_dir / f"{chart.name}.png").write_bytes(chart.png)
    return charts
