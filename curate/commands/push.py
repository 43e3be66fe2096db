"""`curate push`: publish the built dataset to a folder (--to-dir) and/or the Hugging Face Hub."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from curate.commands.config_options import config_command
from curate.commands.options import WorkspaceOption
from curate.publish.publish_config import PushConfig
from curate.workspace import DEFAULT_WORKSPACE, Workspace


def register(app: typer.Typer) -> None:
    app.command("push")(push)


@config_command(PushConfig, "push")
def push(
    cfg: PushConfig,
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    dry_run: Annotated[bool, typer.Option(help="Run the gates, show what would be published.")] = False,
) -> None:
    """Publish: formats as configs, dataset card, licence and secret gates, then one Hub commit
    (token from HF_TOKEN or `hf auth login`, endpoint from HF_ENDPOINT) and/or a folder."""
    from curate.stages.push import GateBlocked, run_push  # heavy: only for this command

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
