"""`curate annotate`: teacher-LLM chain-of-thought for the kept kernel units, cached and resumable.

Options and output only; the stage itself (unit selection, key, teacher endpoint, journal and
export) is `curate.stages.annotate`.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer

from annotate.config import AnnotateConfig
from curate.commands.config_options import config_command
from curate.commands.options import ConfigOption, WorkspaceOption
from curate.errors import UserError
from curate.selection import ANNOTATE_SUBSET_OPTIONS, Subset
from curate.settings import load_config
from curate.workspace import DEFAULT_WORKSPACE, Workspace

# The stage, the teacher client (openai), the verifiers and the progress bar are imported when
# the command runs: `curate annotate --help` imports only the options' configs.
if TYPE_CHECKING:
    from annotate.export import ExportCounts
    from annotate.loop import RunSummary


def register(app: typer.Typer) -> None:
    app.command("annotate")(annotate)


@contextlib.contextmanager
def progress_bar(enabled: bool) -> Iterator[Any]:
    """A rich progress bar on stderr (only on a terminal): units done/total, rate, tokens, failures."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (
        TextColumn("[bold]annotate[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TextColumn("{task.fields[tokens]} tok"),
        TextColumn("{task.fields[failures]} failed"),
        TextColumn("{task.fields[cached]} cached"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("annotate", total=None, rate="", tokens=0, failures=0, cached=0)

        def update(summary: RunSummary, done: int, total: int) -> None:
            elapsed = bar.tasks[0].elapsed or 0.0
            rate = f"{summary.requested / elapsed:.1f} req/s" if elapsed > 0 else ""
            bar.update(
                task,
                completed=done,
                total=total,
                rate=rate,
                tokens=summary.prompt_tokens + summary.completion_tokens,
                failures=summary.failed,
                cached=summary.cached,
            )

        yield update


def summary_line(summary: RunSummary, counts: ExportCounts, verifiers: str) -> str:
    cost = f", cost {summary.cost:.4f}" if summary.cost is not None else ""
    return (
        f"annotated {summary.units} units in {summary.elapsed_s:.1f} s: {summary.accepted} accepted, "
        f"{summary.rejected} rejected, {summary.failed} failed, {summary.pending} pending; "
        f"{summary.requested} answers received ({summary.http_requests} HTTP requests), "
        f"{summary.cached} from the journal, {summary.retries} retries; "
        f"answer format {summary.response_format or '-'} ({summary.response_format_source or '-'}); "
        f"tokens {summary.prompt_tokens} in / {summary.completion_tokens} out{cost}; verifiers: {verifiers}; "
        f"annotations.parquet {counts.annotations} rows, attempts.parquet {counts.attempts} rows"
        + left_out_line(summary)
    )


def left_out_line(summary: RunSummary) -> str:
    """What the teacher did not see: compact prompts' cuts (full prompts show the whole unit)."""
    window = f"; teacher context {summary.context_tokens} tokens ({summary.context_source})"
    shown = window if summary.context_tokens else ""
    if not summary.units_shortened:
        return shown
    return (
        f"{shown}; compact prompts left out {summary.code_lines_left_out} code lines "
        f"of {summary.units_shortened} units"
    )


# The [annotate] fields that are command-line options (their help is declared on the fields).
ANNOTATE_OPTIONS = (
    "teacher",
    "base_url",
    "model",
    "api_key_env",
    "temperature",
    "top_p",
    "max_tokens",
    "seed",
    "response_format",
    "prompt_style",
    "context_tokens",
    "concurrency",
    "rpm",
    "tpm",
    "timeout_s",
    "retries",
    "format_retries",
    "max_rounds",
    "limit",
    "max_unit_lines",
    "price_in",
    "price_out",
    "local_model",
)


@config_command(
    AnnotateConfig, "annotate", only=ANNOTATE_OPTIONS, groups={"subset": (Subset, ANNOTATE_SUBSET_OPTIONS)}
)
def annotate(
    loaded: AnnotateConfig,
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    export_only: Annotated[
        bool, typer.Option("--export-only", help="Only rewrite the parquet tables from the journal.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final summary as one JSON object.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    config: ConfigOption = None,
    task: Annotated[
        str, typer.Option(help="kernel (reasoning for each kernel unit) or knowledge (Q&A on docs.parquet).")
    ] = "kernel",
    questions_per_chunk: Annotated[
        int | None,
        typer.Option(help="--task knowledge: questions asked per documentation chunk (default 3)."),
    ] = None,
    given: dict[str, Any] | None = None,
    subset: Subset | None = None,
) -> None:
    """Ask a teacher LLM for the reasoning behind each kernel, verify it, journal it, export it.
    Exit status: 0 when every selected unit was judged, 3 when some failed (the failures are
    summarised by reason on stderr), 2 when the run was stopped or could not start."""
    from rich.console import Console

    from annotate.failures import report_lines
    from annotate.reasoning import VerifyConfig
    from curate.stages.annotate import UNITS_FAILED_EXIT, run_annotate, run_export_only

    cfg = loaded.resolved()
    ws = Workspace(workspace)
    if task not in ("kernel", "knowledge"):
        raise UserError(f"--task must be kernel or knowledge, not {task!r}")
    if subset is not None and subset.given() and (task == "knowledge" or export_only):
        what = "--task knowledge" if task == "knowledge" else "--export-only"
        raise UserError(f"{subset.describe()} selects kernel units; it does not apply to {what}")
    if task == "knowledge":
        knowledge_task(
            ws, cfg, {"questions_per_chunk": questions_per_chunk, "limit": (given or {}).get("limit")}, config
        )
        return

    if export_only:
        counts = run_export_only(ws)
        result = {"annotations": counts.annotations, "attempts": counts.attempts, **counts.verdicts}
        print(
            json.dumps(result)
            if as_json
            else f"exported {counts.annotations} annotations, {counts.attempts} attempts"
        )
        return

    outcome = run_annotate(
        ws,
        cfg,
        load_config(VerifyConfig, "verify", config_file=config),  # the same [verify] as `curate verify`
        progress_bar(not quiet and Console(stderr=True).is_terminal),
        subset,
    )
    summary, counts = outcome.summary, outcome.counts
    if as_json:
        keys = ("requested", "cached", "accepted", "rejected", "failed", "prompt_tokens", "completion_tokens")
        record = {key: getattr(summary, key) for key in keys}
        record.update(
            units=summary.units,
            pending=summary.pending,
            retries=summary.retries,
            http_requests=summary.http_requests,
            cost=summary.cost,
            oversized=outcome.oversized,
            response_format=summary.response_format,
            response_format_source=summary.response_format_source,
            context_tokens=summary.context_tokens,
            context_source=summary.context_source,
            units_shortened=summary.units_shortened,
            code_lines_left_out=summary.code_lines_left_out,
            failures=summary.failures,
            stopped=summary.stopped,
        )
        print(json.dumps(record))
    else:
        too_long = (
            f"; {outcome.oversized} units over max_unit_lines={cfg.max_unit_lines} not annotated"
            if outcome.oversized
            else ""
        )
        print(summary_line(summary, counts, outcome.verifiers) + too_long)
    if summary.stopped:
        raise UserError(f"annotate stopped: {summary.stopped}")
    if summary.failed:
        print("\n".join(report_lines(summary.failures, summary.failed, summary.units)), file=sys.stderr)
        raise typer.Exit(UNITS_FAILED_EXIT)


def knowledge_task(ws: Workspace, cfg: AnnotateConfig, cli: dict[str, Any], config_file: Any) -> None:
    """`--task knowledge`: questions grounded in the documentation chunks (curate/stages/knowledge.py)."""
    from annotate.tasks.knowledge_qa import KnowledgeConfig
    from curate.stages.knowledge import default_checks, run_knowledge

    kcfg = load_config(KnowledgeConfig, "knowledge", cli=cli, config_file=config_file)
    catalog, check = default_checks()
    print(run_knowledge(ws, cfg, kcfg, catalog, check).line(str(ws.knowledge)))
