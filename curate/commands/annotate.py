"""`curate annotate`: teacher-LLM chain-of-thought for the kept kernel units, cached and resumable.

Reads `units.parquet` (only the units `dedup` kept, when `decisions.parquet` exists), runs the
annotation loop against any OpenAI-compatible endpoint (or a llama.cpp server it starts itself
with `--teacher local`), journals everything in `annotate.sqlite`, and rewrites
`annotations.parquet` and `attempts.parquet` from the journal at the end (also after a failure or
Ctrl-C, so partial results are kept). The API key is read from the environment variable named by
`--api-key-env` and is never written anywhere.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from annotate.config import AnnotateConfig
from annotate.export import ExportCounts, export_tables
from annotate.journal import JournalError
from annotate.local_teacher import LocalTeacher, LocalTeacherError
from annotate.loop import RunSummary
from annotate.reasoning import VerifyConfig, default_verifiers, verifier_names
from annotate.run import annotate_units
from annotate.teacher import TeacherFatal
from curate.config import load_config
from curate.errors import UserError
from curate.workspace import DEFAULT_WORKSPACE, Workspace
from schemas import Decision, KernelUnit, read_records

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
NO_KEY = "no-key-needed"  # what local servers get when no key is configured (they ignore it)


def register(app: typer.Typer) -> None:
    app.command("annotate")(annotate)


def select_units(ws: Workspace, limit: int) -> list[KernelUnit]:
    """The units to annotate: all of them, or only those dedup kept; the first `limit` when given."""
    units = read_records(ws.require(ws.units, "ingest"), KernelUnit)
    if ws.decisions.exists():
        keep = {d.unit_id for d in read_records(ws.decisions, Decision) if d.decision == "keep"}
        units = [u for u in units if u.unit_id in keep]
    return units[:limit] if limit else units


def read_api_key(config: AnnotateConfig) -> str:
    """The key from the environment; loopback servers (local teacher, vLLM, llama.cpp) need none."""
    if config.teacher == "local":
        return NO_KEY  # never hand a real key to a server we started ourselves
    key = os.environ.get(config.api_key_env, "")
    if key:
        return key
    if (urllib.parse.urlparse(config.base_url).hostname or "") in LOOPBACK_HOSTS:
        return NO_KEY
    raise UserError(
        f"the API key is not set: export {config.api_key_env}=<key> (or name another variable with --api-key-env)"
    )


@contextlib.contextmanager
def teacher_endpoint(config: AnnotateConfig) -> Iterator[AnnotateConfig]:
    """The config pointing at the teacher: as given, or at a local llama.cpp server run for the block."""
    if config.teacher != "local":
        yield config
        return
    try:
        with LocalTeacher(config) as local:
            yield dataclasses.replace(config, base_url=local.base_url, model=local.model_alias)
    except LocalTeacherError as exc:
        raise UserError(str(exc)) from None


@contextlib.contextmanager
def progress_bar(enabled: bool) -> Iterator[Any]:
    """A rich progress bar on stderr (only on a terminal): units done/total, rate, tokens, failures."""
    if not enabled:
        yield None
        return
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
        f"{summary.requested} requests sent, {summary.cached} from the journal, {summary.retries} retries; "
        f"tokens {summary.prompt_tokens} in / {summary.completion_tokens} out{cost}; verifiers: {verifiers}; "
        f"annotations.parquet {counts.annotations} rows, attempts.parquet {counts.attempts} rows"
    )


def _export(ws: Workspace) -> ExportCounts:
    try:
        return export_tables(ws.journal, ws.annotations, ws.attempts)
    except JournalError as exc:
        raise UserError(str(exc)) from None


def annotate(
    workspace: Annotated[
        Path, typer.Option("--workspace", "-w", help="Workspace directory.")
    ] = DEFAULT_WORKSPACE,
    teacher: Annotated[
        str | None, typer.Option(help="openai (any OpenAI-compatible URL) or local (llama.cpp).")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="OpenAI-compatible endpoint, e.g. http://host:8000/v1.")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Teacher model name.")] = None,
    api_key_env: Annotated[
        str | None, typer.Option(help="Name of the environment variable holding the API key.")
    ] = None,
    temperature: Annotated[float | None, typer.Option(help="Sampling temperature.")] = None,
    top_p: Annotated[float | None, typer.Option(help="Nucleus sampling top_p.")] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Completion token limit (0: per teacher).")] = None,
    seed: Annotated[int | None, typer.Option(help="Sampling seed, when the server supports it.")] = None,
    response_format: Annotated[
        str | None, typer.Option(help="auto, json_schema, json_object (llama.cpp schema) or tagged.")
    ] = None,
    prompt_style: Annotated[
        str | None, typer.Option(help="auto, full or compact (short, code truncated).")
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option(help="Requests in flight (0: 16, or 1 for local).")
    ] = None,
    rpm: Annotated[int | None, typer.Option(help="Requests-per-minute limit (0: none).")] = None,
    tpm: Annotated[int | None, typer.Option(help="Tokens-per-minute limit (0: none).")] = None,
    timeout: Annotated[
        float | None, typer.Option(help="Per-request timeout in seconds (0: per teacher).")
    ] = None,
    retries: Annotated[int | None, typer.Option(help="Retries per request on 429/5xx/timeouts.")] = None,
    format_retries: Annotated[
        int | None, typer.Option(help="Re-asks after truncated or unparsable answers.")
    ] = None,
    max_rounds: Annotated[
        int | None, typer.Option(help="Verifier feedback rounds after the first answer.")
    ] = None,
    limit: Annotated[int | None, typer.Option(help="Annotate at most this many units (0: all).")] = None,
    price_in: Annotated[
        float | None, typer.Option(help="Price per million prompt tokens (shows cost).")
    ] = None,
    price_out: Annotated[float | None, typer.Option(help="Price per million completion tokens.")] = None,
    local_model: Annotated[
        str | None, typer.Option(help="GGUF for --teacher local (default: Gemma 3 270M).")
    ] = None,
    export_only: Annotated[
        bool, typer.Option("--export-only", help="Only rewrite the parquet tables from the journal.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the final summary as one JSON object.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    config: Annotated[
        Path | None, typer.Option(help="TOML configuration file (default: ./curate.toml).")
    ] = None,
) -> None:
    """Ask a teacher LLM for the reasoning behind each kernel, verify it, journal it, export it."""
    cli = {
        "teacher": teacher,
        "base_url": base_url,
        "model": model,
        "api_key_env": api_key_env,
        "temperature": temperature,
        "top_p": top_p,
        "max_tokens": max_tokens,
        "seed": seed,
        "response_format": response_format,
        "prompt_style": prompt_style,
        "concurrency": concurrency,
        "rpm": rpm,
        "tpm": tpm,
        "timeout_s": timeout,
        "retries": retries,
        "format_retries": format_retries,
        "max_rounds": max_rounds,
        "limit": limit,
        "price_in": price_in,
        "price_out": price_out,
        "local_model": local_model,
    }
    cfg = load_config(AnnotateConfig, "annotate", cli=cli, config_file=config).resolved()
    ws = Workspace(workspace)

    if export_only:
        ws.require(ws.journal, "annotate")
        with ws.locked():
            counts = _export(ws)
        result = {"annotations": counts.annotations, "attempts": counts.attempts, **counts.verdicts}
        print(
            json.dumps(result)
            if as_json
            else f"exported {counts.annotations} annotations, {counts.attempts} attempts"
        )
        return

    units = select_units(ws, cfg.limit)
    if not units:
        raise UserError(
            f"no units to annotate in {ws.root}: every unit was dropped by dedup, or ingest found none"
        )
    api_key = read_api_key(cfg)
    # The verifiers take their settings from [verify] (the same as `curate verify`).
    verifiers = default_verifiers(load_config(VerifyConfig, "verify", config_file=config))
    names = verifier_names(verifiers)
    summary: RunSummary | None = None
    with ws.locked():
        try:
            with (
                teacher_endpoint(cfg) as endpoint,
                progress_bar(not quiet and Console(stderr=True).is_terminal) as bar,
            ):
                summary = annotate_units(units, endpoint, verifiers, ws.journal, api_key, progress=bar)
        except TeacherFatal as exc:
            raise UserError(
                f"the teacher refused the run ({exc.message}); check --base-url, --model and the key"
            ) from None
        except JournalError as exc:
            raise UserError(str(exc)) from None
        finally:
            # Partial results are results: export whatever the journal holds, even after a failure.
            counts = _export(ws) if ws.journal.exists() else ExportCounts(0, 0, {})
            ws.record_run(
                "annotate",
                completed=summary is not None,
                summary=summary.as_dict() if summary else None,
                verifiers=names,
                config=cfg.as_record(),
            )
    assert summary is not None  # the block above either set it or raised
    if as_json:
        keys = ("requested", "cached", "accepted", "rejected", "failed", "prompt_tokens", "completion_tokens")
        record = {key: getattr(summary, key) for key in keys}
        record.update(
            units=summary.units, pending=summary.pending, retries=summary.retries, cost=summary.cost
        )
        print(json.dumps(record))
    else:
        print(summary_line(summary, counts, names))
