"""`curate run RECIPE.toml`: the whole job declared in one file, every stage in order, skipping
what is up to date, resumable after a kill, one summary at the end."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from curate.commands.options import JsonOption


def register(app: typer.Typer) -> None:
    app.command("run")(run)


def run(
    recipe_file: Annotated[
        Path, typer.Argument(metavar="RECIPE", help="The recipe (a TOML file, see recipes/).")
    ],
    workspace: Annotated[
        Path | None,
        typer.Option("--workspace", "-w", help="Run in this workspace instead of the recipe's."),
    ] = None,
    mirror: Annotated[
        Path | None,
        typer.Option(
            help="Read git sources from this mirror directory (DIR/owner+name) instead of the network "
            "(default: $CURATE_MIRROR)."
        ),
    ] = None,
    limit: Annotated[
        int | None, typer.Option(help="Annotate at most this many units (overrides [annotate] limit).")
    ] = None,
    until: Annotated[str | None, typer.Option(help="Stop after this step (e.g. build).")] = None,
    force: Annotated[
        list[str] | None, typer.Option(help="Run this step even when it is up to date (repeatable).")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Only validate the recipe and list its steps.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Run a recipe: ingest its sources, benchmarks and documentation, dedup, annotate, verify,
    build, push and report, each step skipped when its inputs and config are unchanged since it
    last finished (records in WORKSPACE/recipe-run.json)."""
    from curate.errors import UserError
    from curate.recipe import load_recipe
    from curate.runner import run_recipe

    recipe = load_recipe(recipe_file, workspace)  # the whole recipe is checked before anything runs
    if limit is not None and limit < 0:
        raise UserError(f"--limit must be >= 0, got {limit}")
    mirror_dir = mirror or (Path(os.environ["CURATE_MIRROR"]) if os.environ.get("CURATE_MIRROR") else None)
    if mirror_dir is not None and not mirror_dir.is_dir():
        raise UserError(f"mirror {mirror_dir} is not a directory")
    if check:
        from curate.recipe_steps import recipe_steps
        from curate.workspace import Workspace

        steps = recipe_steps(recipe, Workspace(recipe.workspace), mirror_dir, limit)
        print(f"recipe {recipe.name}: valid; {len(steps)} steps: {', '.join(s.id for s in steps)}")
        return
    outcome = run_recipe(recipe, mirror_dir, set(force or []), until, limit)
    if as_json:
        import json

        record = {
            "recipe": recipe.name,
            "workspace": str(outcome.workspace),
            "seconds": round(outcome.seconds, 3),
            "steps": [
                {"step": r.step, "status": r.status, "seconds": round(r.seconds, 3), "line": r.line}
                for r in outcome.results
            ],
        }
        print(json.dumps(record))
        return
    width = max(len(r.step) for r in outcome.results)
    print(f"recipe {recipe.name} -> {outcome.workspace}")
    for r in outcome.results:
        print(f"  {r.step:<{width}}  {r.status:<10}  {r.seconds:7.1f} s  {r.line}")
    reported = any(r.step == "report" for r in outcome.results)
    report = f"; report: {outcome.workspace / 'reports' / 'report.html'}" if reported else ""
    print(
        f"run: {len(outcome.ran())} steps ran, {len(outcome.skipped())} up to date, "
        f"{outcome.seconds:.1f} s{report}"
    )
