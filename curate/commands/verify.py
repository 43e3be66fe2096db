"""`curate verify`: re-judge the stored annotations with the verifiers of the day, no teacher call.

Every reasoning in `annotations.parquet` and `attempts.parquet` is verified again against its
unit's facts (API surface, grounding, the CANN compiler when a toolkit is found); verdicts and
diagnostics are replaced and both tables are rewritten atomically. When the tables have not been
exported yet but the annotation journal exists, they are exported from it first. The journal
itself is left as the annotation run wrote it: a later `curate annotate` re-judges its cached
answers with the verifiers of that day, `curate annotate --export-only` restores its verdicts.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Annotated

import typer

from annotate.reasoning.config import VerifyConfig
from annotate.reasoning.rerun import ReverifySummary, reverify
from annotate.reasoning.verifiers import default_verifiers
from curate.commands.check_kernel import verify_config
from curate.commands.ingest import WorkspaceOption
from curate.errors import UserError
from curate.workspace import DEFAULT_WORKSPACE, Workspace
from schemas import Annotation, Attempt, KernelUnit, read_records, write_records


def register(app: typer.Typer) -> None:
    app.command("verify")(verify)


def _export_from_journal(ws: Workspace) -> None:
    from annotate.export import export_tables
    from annotate.journal import JournalError

    try:
        export_tables(ws.journal, ws.annotations, ws.attempts)
    except JournalError as exc:
        raise UserError(str(exc)) from None


def verify_workspace(ws: Workspace, cfg: VerifyConfig) -> tuple[ReverifySummary, list[str]]:
    """Re-judge the workspace's tables in place; the summary and the names of the verifiers run."""
    ws.require(ws.units, "ingest")
    if not ws.annotations.exists():
        if not ws.journal.exists():
            ws.require(ws.annotations, "annotate")
        _export_from_journal(ws)
    units = {u.unit_id: u for u in read_records(ws.units, KernelUnit)}
    annotations = read_records(ws.annotations, Annotation)
    attempts = read_records(ws.attempts, Attempt) if ws.attempts.exists() else []
    verifiers = default_verifiers(cfg)
    new_annotations, new_attempts, summary = reverify(units, annotations, attempts, verifiers)
    write_records(ws.annotations, Annotation, new_annotations)
    if ws.attempts.exists() or new_attempts:
        write_records(ws.attempts, Attempt, new_attempts)
    return summary, [v.name for v in verifiers]


def verify(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    soc: Annotated[
        str | None, typer.Option(help="Target SoC: Ascend910B, Ascend950, ... (default auto, per kernel).")
    ] = None,
    cann_home: Annotated[
        str | None, typer.Option("--cann-home", help="CANN toolkit root (default: $ASCEND_HOME_PATH).")
    ] = None,
    cann: Annotated[
        bool | None, typer.Option("--cann/--no-cann", help="Use the vendor compiler when found.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as one JSON object.")] = False,
    config: Annotated[
        Path | None, typer.Option(help="TOML configuration file (default: ./curate.toml).")
    ] = None,
) -> None:
    """Re-run the verifiers over stored annotations and attempts (no teacher call)."""
    cfg = verify_config(soc, cann_home, cann, config)
    ws = Workspace(Path(workspace))
    started = time.monotonic()
    with ws.locked():
        summary, names = verify_workspace(ws, cfg)
        elapsed = time.monotonic() - started
        ws.record_run(
            "verify",
            summary=dataclasses.asdict(summary),
            verifiers=", ".join(names),
            config=dataclasses.asdict(cfg),
            elapsed_s=round(elapsed, 2),
        )
    if as_json:
        print(json.dumps({**dataclasses.asdict(summary), "verifiers": names, "elapsed_s": round(elapsed, 2)}))
        return
    print(
        f"verified {summary.annotations} annotations and {summary.attempts} attempts in {elapsed:.1f} s "
        f"with {', '.join(names)}: {summary.accepted} accepted, {summary.rejected} rejected, "
        f"{summary.changed} changed verdict; {summary.skipped} not judged (pending/failed)"
        + (f", {summary.unknown_units} with no unit in units.parquet" if summary.unknown_units else "")
    )
