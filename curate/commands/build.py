"""`curate build`: the published rows and preference pairs, from the workspace tables."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from curate.config import load_config
from curate.publish import BuildConfig, run_build
from curate.workspace import DEFAULT_WORKSPACE, Workspace


def register(app: typer.Typer) -> None:
    @app.command("build")
    def build(
        workspace: Path = typer.Option(DEFAULT_WORKSPACE, "--workspace", "-w", help="workspace directory"),
        validation_ratio: float | None = typer.Option(
            None, "--validation-ratio", help="share of operators in the validation split (default 0.1)"
        ),
        split_salt: str | None = typer.Option(None, "--split-salt", help="salt of the operator hash"),
        include_rejected: bool | None = typer.Option(
            None, "--include-rejected/--accepted-only", help="also keep rejected annotations (own config)"
        ),
        config_file: Path | None = typer.Option(None, "--config", help="curate.toml to read [build] from"),
        as_json: bool = typer.Option(False, "--json", help="print the build summary as JSON"),
    ) -> None:
        """Join units, dedup decisions, annotations and attempts into DIR/dataset.parquet."""
        config = load_config(
            BuildConfig,
            "build",
            cli={"validation_ratio": validation_ratio, "split_salt": split_salt, "include_rejected": include_rejected},
            config_file=config_file,
        )
        ws = Workspace(workspace)
        result = run_build(ws, config)
        summary = result.summary
        if as_json:
            typer.echo(json.dumps(summary, indent=2, sort_keys=True))
            return
        decided, verdicts = summary["decisions"], summary["verdicts_of_kept_units"]
        per_split = ", ".join(f"{s} {n}" for s, n in summary["rows_per_split"].items())
        left_out = {
            "leaks": decided.get("leak", 0),
            "duplicates": decided.get("duplicate", 0),
            "without dedup decision": decided.get("undecided", 0),
            "not annotated": verdicts.get("not annotated", 0),
            "rejected": 0 if config.include_rejected else verdicts.get("rejected", 0),
            "failed": verdicts.get("failed", 0),
            "pending": verdicts.get("pending", 0),
        }
        typer.echo(
            f"build: {len(result.rows)} rows ({per_split}), {len(result.pairs)} preference pairs; left out: "
            + ", ".join(f"{n} {what}" for what, n in left_out.items())
            + f" -> {ws.root / 'dataset.parquet'}"
        )
