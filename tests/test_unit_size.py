"""Size is a first-class fact: units longer than max_unit_lines stay in units.parquet (and go
through dedup and audit) but are neither annotated nor published, and are counted; `curate
stats` shows the size distribution."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from curate.publish import BuildConfig
from curate.stages.annotate import select_units
from curate.stages.build import build_dataset
from schemas import DEFAULT_MAX_UNIT_LINES, Decision, KernelUnit, read_records, unit_lines, write_records
from tests.conftest import run_curate
from tests.test_publish_workspace import DEFAULT_SPECS, make_workspace


def test_build_leaves_out_units_over_max_unit_lines_and_counts_them(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    units = read_records(ws.units, KernelUnit)
    bound = max(unit_lines(u) for u in units)
    for u in units[::2]:  # every other unit grows past the bound
        u.code += "\n".join(f"int filler_{i};" for i in range(10))
        u.lines = unit_lines(dataclasses.replace(u, lines=0))
    write_records(ws.units, KernelUnit, units)
    longer = {u.unit_id for u in units if unit_lines(u) > bound}
    everything = build_dataset(ws, BuildConfig(max_unit_lines=0))
    bounded = build_dataset(ws, BuildConfig(max_unit_lines=bound))
    assert {r.id for r in bounded.rows} == {r.id for r in everything.rows} - longer
    kept_and_long = [
        d for d in read_records(ws.decisions, Decision) if d.decision == "keep" and d.unit_id in longer
    ]
    assert bounded.summary["oversized_units"] == len(kept_and_long) > 0
    assert everything.summary["oversized_units"] == 0


def test_annotate_selects_only_units_within_the_bound(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", DEFAULT_SPECS)
    all_kept = select_units(ws, 0, 0)
    bound = min(unit_lines(u) for u in all_kept.units)
    selection = select_units(ws, 0, bound)
    assert all(unit_lines(u) <= bound for u in selection.units)
    assert selection.oversized == len(all_kept.units) - len(selection.units) > 0


def test_stats_shows_the_size_distribution_and_the_count_over_the_bound(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    units = read_records(ws.units, KernelUnit)
    huge = units[0]
    huge.code += "\n".join(f"int filler_{i};" for i in range(DEFAULT_MAX_UNIT_LINES))
    huge.lines = 0  # as in a table written before the size columns: counted from the code
    write_records(ws.units, KernelUnit, units)
    done = run_curate("stats", "-w", str(ws.root), "--json")
    assert done.returncode == 0, done.stderr
    size = json.loads(done.stdout)["size"]
    assert size["over_max_unit_lines"] == 1 and size["max_unit_lines"] == DEFAULT_MAX_UNIT_LINES
    assert size["lines"]["max"] > DEFAULT_MAX_UNIT_LINES >= size["lines"]["median"] > 0
    assert size["tokens"]["max"] == -(-size["chars"]["max"] // 4)
    human = run_curate("stats", "-w", str(ws.root))
    assert (
        "unit size" in human.stdout and f"1 unit over max_unit_lines={DEFAULT_MAX_UNIT_LINES}" in human.stdout
    )
