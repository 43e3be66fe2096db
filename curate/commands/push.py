"""`curate push`: publish the built dataset to a folder (--to-dir) and/or the Hugging Face Hub."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from curate.commands.options import ConfigOption, WorkspaceOption
from curate.config import load_config
from curate.workspace import DEFAULT_WORKSPACE, Workspace

if TYPE_CHECKING:
    from curate.publish import PushConfig


def register(app: typer.Typer) -> None:
    app.command("push")(push)


def push(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    repo_id: Annotated[str | None, typer.Option(help="Hub dataset repository ORG/NAME.")] = None,
    to_dir: Annotated[str | None, typer.Option(help="Write the repository content into this folder.")] = None,
    private: Annotated[
        bool | None, typer.Option("--private/--public", help="Visibility of a new Hub repository.")
    ] = None,
    revision: Annotated[str | None, typer.Option(help="Branch to commit to (default main).")] = None,
    commit_message: Annotated[str | None, typer.Option(help="Message of the Hub commit.")] = None,
    allow_license: Annotated[
        list[str] | None,
        typer.Option(help="Licence allowed for publication: SPDX id or name (repeat, or comma-separate)."),
    ] = None,
    formats: Annotated[
        list[str] | None,
        typer.Option("--format", help="raw, alpaca, messages, preference (repeat; default all)."),
    ] = None,
    pretty_name: Annotated[str | None, typer.Option(help="Name shown on the dataset card.")] = None,
    shard_rows: Annotated[int | None, typer.Option(help="Rows per parquet shard.")] = None,
    ignore_finding: Annotated[
        list[str] | None,
        typer.Option(help="Id of a secret-gate finding judged a false positive (repeat)."),
    ] = None,
    dry_run: Annotated[bool, typer.Option(help="Run the gates, show what would be published.")] = False,
    config: ConfigOption = None,
) -> None:
    """Publish: formats as configs, dataset card, licence and secret gates, then one Hub commit
    (token from HF_TOKEN or `hf auth login`, endpoint from HF_ENDPOINT) and/or a folder."""
    from curate.publish import PushConfig  # heavy: only for this command
    from curate.stages.push import GateBlocked, run_push

    cfg = load_config(
        PushConfig,
        "push",
        cli={
            "repo_id": repo_id,
            "to_dir": to_dir,
            "private": private,
            "revision": revision,
            "commit_message": commit_message,
            "allow_license": _split(allow_license),
            "formats": _split(formats),
            "pretty_name": pretty_name,
            "shard_rows": shard_rows,
            "ignore_finding": _split(ignore_finding),
        },
        config_file=config,
    )
    try:
        outcome = run_push(Workspace(workspace), cfg, _rerun(workspace, cfg, dry_run), dry_run=dry_run)
    except GateBlocked as exc:
        typer.echo(exc.details, err=True)
        raise
    configs = ", ".join(
        f"{name} ({'/'.join(map(str, s.values()))})" for name, s in outcome.content.configs.items()
    )
    licences = ", ".join(f"{c.license} {c.rows}" for c in outcome.licenses)
    typer.echo(f"push: configs {configs}; licences {licences}; {len(outcome.content.files)} files")
    if outcome.dry_run:
        typer.echo("dry run: nothing written or uploaded")
    if outcome.to_dir is not None:
        typer.echo(
            f"dataset folder: {outcome.to_dir} (datasets.load_dataset({str(outcome.to_dir)!r}) reads it)"
        )
    if outcome.commit_url:
        typer.echo(f"committed: {outcome.commit_url}")


def _rerun(workspace: Path, cfg: PushConfig, dry_run: bool) -> str:
    """The command to run again after a failure (no token in it: that stays in HF_TOKEN)."""
    args = ["curate", "push", "--workspace", str(workspace)]
    if cfg.repo_id:
        args += ["--repo-id", cfg.repo_id]
    if cfg.to_dir:
        args += ["--to-dir", cfg.to_dir]
    if cfg.private:
        args.append("--private")
    if cfg.revision != "main":
        args += ["--revision", cfg.revision]
    for lic in cfg.allow_license:
        args += ["--allow-license", lic]
    if dry_run:
        args.append("--dry-run")
    return shlex.join(args)


def _split(values: list[str] | None) -> list[str] | None:
    """Repeated options, each possibly comma-separated."""
    if not values:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]
