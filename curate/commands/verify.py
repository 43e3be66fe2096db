"""`curate verify`: re-judge the stored annotations with the verifiers of the day, no teacher call."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated

import typer

from annotate.reasoning import VerifyConfig
from curate.commands.config_options import config_command
from curate.commands.options import VERIFY_OPTIONS, WorkspaceOption
from curate.selection import SUBSET_OPTIONS, Subset
from curate.workspace import DEFAULT_WORKSPACE, Workspace


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)


@config_command(VerifyConfig, "verify", only=VERIFY_OPTIONS, groups={"subset": (Subset, SUBSET_OPTIONS)})
def verify(
    cfg: VerifyConfig,
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    subset: Subset | None = None,
) -> None:
    """Re-run the verifiers over stored annotations and attempts (no teacher call)."""
    from curate.stages.verify import run_verify  # imported here: `curate --help` does not pay for it

    outcome = run_verify(Workspace(workspace), cfg, subset)
    summary, names, elapsed = outcome.summary, outcome.verifiers, outcome.elapsed_s
    if as_json:
        print(json.dumps({**dataclasses.asdict(summary), "verifiers": names, "elapsed_s": elapsed}))
        return
    print(
        f"verified {summary.annotations} annotations and {summary.attempts} attempts in {elapsed:.1f} s "
        f"with {', '.join(names)}: {summary.accepted} accepted, {summary.rejected} rejected, "
        f"{summary.changed} changed verdict; {summary.skipped} not judged (pending/failed)"
        + (f", {summary.unknown_units} with no unit in units.parquet" if summary.unknown_units else "")
        + (
            f"; only the units of {subset.describe()}, the other rows unchanged"
            if subset and subset.given()
            else ""
        )
    )
