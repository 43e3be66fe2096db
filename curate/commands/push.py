"""`curate push`: publish the built dataset to a folder (--to-dir) and/or the Hugging Face Hub."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from curate.config import load_config
from curate.publish import GateBlocked, PushConfig, run_push
from curate.workspace import DEFAULT_WORKSPACE, Workspace


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


def register(app: typer.Typer) -> None:
    @app.command("push")
    def push(
        workspace: Path = typer.Option(DEFAULT_WORKSPACE, "--workspace", "-w", help="workspace directory"),
        repo_id: str | None = typer.Option(None, "--repo-id", help="Hub dataset repository ORG/NAME"),
        to_dir: str | None = typer.Option(None, "--to-dir", help="write the repository content into this folder"),
        private: bool | None = typer.Option(None, "--private/--public", help="visibility of a new Hub repository"),
        revision: str | None = typer.Option(None, "--revision", help="branch to commit to (default main)"),
        commit_message: str | None = typer.Option(None, "--commit-message"),
        allow_license: list[str] | None = typer.Option(
            None, "--allow-license", help="licence allowed for publication (SPDX id or name; repeat)"
        ),
        formats: list[str] | None = typer.Option(
            None, "--format", help="raw, alpaca, messages, preference (repeat; default all)"
        ),
        pretty_name: str | None = typer.Option(None, "--pretty-name"),
        shard_rows: int | None = typer.Option(None, "--shard-rows", help="rows per parquet shard"),
        ignore_finding: list[str] | None = typer.Option(
            None, "--ignore-finding", help="id of a secret-gate finding judged a false positive (repeat)"
        ),
        dry_run: bool = typer.Option(False, "--dry-run", help="run the gates and show what would be published"),
        config_file: Path | None = typer.Option(None, "--config", help="curate.toml to read [push] from"),
    ) -> None:
        """Publish: formats as configs, dataset card, licence and secret gates, then one Hub commit
        (token from HF_TOKEN or `hf auth login`, endpoint from HF_ENDPOINT) and/or a folder."""
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
            config_file=config_file,
        )
        try:
            outcome = run_push(Workspace(workspace), cfg, _rerun(workspace, cfg, dry_run), dry_run=dry_run)
        except GateBlocked as exc:
            typer.echo(exc.details, err=True)
            raise
        configs = ", ".join(f"{name} ({'/'.join(f'{n}' for n in splits.values())})" for name, splits in outcome.content.configs.items())
        licences = ", ".join(f"{c.license} {c.rows}" for c in outcome.licenses)
        typer.echo(f"push: configs {configs}; licences {licences}; {len(outcome.content.files)} files")
        if outcome.dry_run:
            typer.echo("dry run: nothing written or uploaded")
        if outcome.to_dir is not None:
            typer.echo(f"dataset folder: {outcome.to_dir} (datasets.load_dataset({str(outcome.to_dir)!r}) reads it)")
        if outcome.commit_url:
            typer.echo(f"committed: {outcome.commit_url}")


def _split(values: list[str] | None) -> list[str] | None:
    """Repeated options, each possibly comma-separated."""
    if not values:
        return None
    return [part.strip() for value in values for part in value.split(",") if part.strip()]
