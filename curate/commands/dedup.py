"""`curate dedup`: remove near-duplicate units and units that leak a benchmark answer."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from curate.config import load_config
from curate.errors import UserError
from curate.workspace import DEFAULT_WORKSPACE, Workspace, write_text_atomic
from dedup.config import DedupConfig
from dedup.decide import run_dedup
from dedup.report import build_json, build_markdown, dump_json, summary_line
from schemas import BenchmarkItem, Decision, KernelUnit, read_records, write_records


def stage_config(cli: dict[str, Any], config_file: Path | None) -> DedupConfig:
    return load_config(DedupConfig, "dedup", cli=cli, config_file=config_file)


def _read_benchmark(ws: Workspace) -> list[BenchmarkItem] | None:
    if not ws.benchmark.exists():
        return None
    items = read_records(ws.benchmark, BenchmarkItem)
    if not items:
        raise UserError(
            f"{ws.benchmark} has no items: re-run `curate ingest BENCH --benchmark` with a benchmark that has tasks"
        )
    return items


def dedup(
    workspace: Annotated[
        Path, typer.Option("--workspace", "-w", help="Workspace directory.")
    ] = DEFAULT_WORKSPACE,
    threshold: Annotated[float | None, typer.Option(help="Jaccard threshold (default 0.7).")] = None,
    containment: Annotated[
        float | None, typer.Option(help="Share of a benchmark kernel found in a unit (default 0.8).")
    ] = None,
    num_perm: Annotated[int | None, typer.Option(help="MinHash permutations (default 128).")] = None,
    ngram: Annotated[int | None, typer.Option(help="Tokens per shingle (default 5).")] = None,
    abstract_identifiers: Annotated[
        bool | None,
        typer.Option(
            "--abstract-identifiers/--keep-identifiers", help="Catch copies with renamed identifiers."
        ),
    ] = None,
    drop_name_matches: Annotated[
        bool | None,
        typer.Option(
            "--drop-name-matches/--keep-name-matches", help="Also remove units named like a benchmark task."
        ),
    ] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="curate.toml to read the dedup section from.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
) -> None:
    """Mark every unit keep / duplicate / leak in decisions.parquet and write reports/leakage.{json,md}."""
    cli = {
        "threshold": threshold,
        "containment": containment,
        "num_perm": num_perm,
        "ngram": ngram,
        "abstract_identifiers": abstract_identifiers,
        "drop_name_matches": drop_name_matches,
    }
    cfg = stage_config(cli, config)
    ws = Workspace(workspace)
    if not ws.units.exists():
        raise UserError(
            f"{ws.units} does not exist: run `curate ingest SOURCE --workspace {workspace}` first"
        )
    with ws.locked():
        started = time.perf_counter()
        units = read_records(ws.units, KernelUnit)
        if not units:
            raise UserError(f"{ws.units} has no units: ingest a source with kernels first")
        items = _read_benchmark(ws)
        result = run_dedup(units, items, cfg)
        report = build_json(result.findings, units, items or [], cfg, result.counts)
        write_records(ws.decisions, Decision, result.decisions)
        write_text_atomic(ws.reports / "leakage.json", dump_json(report))
        write_text_atomic(ws.reports / "leakage.md", build_markdown(report))
        seconds = round(time.perf_counter() - started, 3)
        ws.record_run("dedup", parameters=dataclasses.asdict(cfg), counts=result.counts, seconds=seconds)
    if json_out:
        print(json.dumps({"counts": result.counts, "notes": result.notes, "seconds": seconds}, indent=2))
    else:
        print(f"dedup: {summary_line(result.counts, result.notes)}; report: {ws.reports / 'leakage.md'}")


def register(app: typer.Typer) -> None:
    app.command("dedup")(dedup)
