"""`curate build`: the published rows and preference pairs, from the workspace tables."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from curate.commands.config_options import config_command
from curate.commands.options import WorkspaceOption
from curate.publish.publish_config import BuildConfig
from curate.selection import SUBSET_OPTIONS, Subset
from curate.workspace import DEFAULT_WORKSPACE, Workspace


def register(app: typer.Typer) -> None:
    app.command("build")(build)


@config_command(BuildConfig, "build", groups={"subset": (Subset, SUBSET_OPTIONS)})
def build(
    cfg: BuildConfig,
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    as_json: Annotated[bool, typer.Option("--json", help="Print the build summary as JSON.")] = False,
    subset: Subset | None = None,
) -> None:
    """Join units, dedup decisions, annotations and attempts into DIR/dataset.parquet."""
    from curate.stages.build import run_build  # imported here: other commands do not pay for it

    ws = Workspace(workspace)
    result = run_build(ws, cfg, subset)
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
        f"over max_unit_lines={cfg.max_unit_lines}": summary.get("oversized_units", 0),
        "not annotated": verdicts.get("not annotated", 0),
        "rejected": 0 if cfg.include_rejected else verdicts.get("rejected", 0),
        "failed": verdicts.get("failed", 0),
        "pending": verdicts.get("pending", 0),
    }
    typer.echo(
        f"build: {len(result.rows)} rows ({per_split}), {len(result.pairs)} preference pairs; left out: "
        + ", ".join(f"{n} {what}" for what, n in left_out.items())
        + f" -> {ws.root / 'dataset.parquet'}"
        + (f" (only the units of {subset.describe()})" if subset is not None and subset.given() else "")
    )
