"""`curate check-kernel PATH...`: type-check AscendC kernel files against the API surface.

Each file is parsed with libclang against the project's AscendC surface (and compiled with the
vendor compiler too when a CANN toolkit is found). Output per file: `path: ok|FAILED` and its
findings, or with `--json` one object per line: {"path", "ok", "diagnostics": [{"line",
"severity", "message", ...}]}. Exit status: 0 every file passes, 1 some file fails, 2 bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from annotate.reasoning import VerifyConfig
from curate.commands.config_options import config_command
from curate.commands.options import VERIFY_OPTIONS

if TYPE_CHECKING:
    from annotate.checker import CheckResult


def _print_human(result: CheckResult, show_warnings: bool) -> None:
    status = "ok" if result.ok else "FAILED"
    errors = len(result.errors)
    warnings = sum(d.severity == "warning" for d in result.diagnostics)
    print(f"{result.path}: {status} ({errors} errors, {warnings} warnings)")
    for d in result.diagnostics:
        if d.severity == "error" or show_warnings:
            where = f"{d.path}:{d.line}" if d.path and d.path != result.path else f"line {d.line}"
            print(f"  {where}: {d.severity}: {d.message} [{d.check}]")


@config_command(VerifyConfig, "verify", only=VERIFY_OPTIONS)
def check_kernel(
    cfg: VerifyConfig,
    paths: Annotated[list[Path], typer.Argument(help="Kernel files, or directories to search for them.")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per file and line.")] = False,
    include: Annotated[
        list[Path] | None, typer.Option("--include", "-I", help="Extra include directory (repeatable).")
    ] = None,
    warnings: Annotated[bool, typer.Option("--warnings", help="Also print warnings (human output).")] = False,
) -> None:
    """Type-check kernels against the AscendC API surface; exit 1 when any file fails."""
    from curate.stages.check_kernel import check_kernels, kernel_files  # libclang: only when it runs

    files = kernel_files(paths)
    failed = 0
    for result in check_kernels(files, cfg, include or []):
        failed += not result.ok
        if json_out:
            print(json.dumps(result.to_json(), ensure_ascii=False))
        else:
            _print_human(result, warnings)
    if not json_out and len(files) > 1:
        print(f"{len(files) - failed} of {len(files)} files pass")
    if failed:
        raise SystemExit(1)


def register(app: typer.Typer) -> None:
    app.command("check-kernel")(check_kernel)
