"""`curate check-kernel PATH...`: type-check AscendC kernel files against the API surface.

Each file is parsed with libclang against the project's AscendC surface (and compiled with the
vendor compiler too when a CANN toolkit is found). Output per file: `path: ok|FAILED` and its
findings, or with `--json` one object per line: {"path", "ok", "diagnostics": [{"line",
"severity", "message", ...}]}. Exit status: 0 every file passes, 1 some file fails, 2 bad input.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer

from annotate.checker.cann import CompileRequest, compile_check, detect
from annotate.checker.clangcheck import CheckOptions, CheckResult, KernelChecker
from annotate.reasoning.config import VerifyConfig
from curate.config import load_config
from curate.errors import UserError

KERNEL_SUFFIXES = (".cpp", ".cc", ".cxx", ".asc", ".h", ".hpp")
_KERNEL_RE = re.compile(r"__global__")


def kernel_files(paths: list[Path]) -> list[Path]:
    """Files as given; directories expand to the kernel files (defining a `__global__`) under them."""
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            for candidate in sorted(path.rglob("*")):
                if candidate.suffix in KERNEL_SUFFIXES and candidate.is_file():
                    text = candidate.read_text(encoding="utf-8", errors="replace")
                    if _KERNEL_RE.search(text):
                        found.append(candidate)
        else:
            raise UserError(f"{path} does not exist; give kernel files or directories")
    if not found:
        raise UserError("no kernel files found (a kernel file defines a __global__ function)")
    return found


def _print_human(result: CheckResult, show_warnings: bool) -> None:
    status = "ok" if result.ok else "FAILED"
    errors = len(result.errors)
    warnings = sum(d.severity == "warning" for d in result.diagnostics)
    print(f"{result.path}: {status} ({errors} errors, {warnings} warnings)")
    for d in result.diagnostics:
        if d.severity == "error" or show_warnings:
            where = f"{d.path}:{d.line}" if d.path and d.path != result.path else f"line {d.line}"
            print(f"  {where}: {d.severity}: {d.message} [{d.check}]")


def check_kernel(
    paths: Annotated[list[Path], typer.Argument(help="Kernel files, or directories to search for them.")],
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per file and line.")] = False,
    include: Annotated[
        list[Path] | None, typer.Option("--include", "-I", help="Extra include directory (repeatable).")
    ] = None,
    soc: Annotated[
        str | None,
        typer.Option(
            help="Target SoC: Ascend910B, Ascend950, ... (default auto: Ascend950 for arch35 kernels, else Ascend910B)."
        ),
    ] = None,
    cann_home: Annotated[
        str | None, typer.Option("--cann-home", help="CANN toolkit root (default: $ASCEND_HOME_PATH).")
    ] = None,
    cann: Annotated[
        bool | None, typer.Option("--cann/--no-cann", help="Also compile with the vendor compiler if found.")
    ] = None,
    warnings: Annotated[bool, typer.Option("--warnings", help="Also print warnings (human output).")] = False,
    config: Annotated[
        Path | None, typer.Option("--config", help="curate.toml to read [verify] from.")
    ] = None,
) -> None:
    """Type-check kernels against the AscendC API surface; exit 1 when any file fails."""
    cfg = verify_config(soc, cann_home, cann, config)
    files = kernel_files(paths)
    extra = [p.resolve() for p in include or []]
    for d in extra:
        if not d.is_dir():
            raise UserError(f"-I {d} is not a directory")
    toolkit = detect(cfg.cann_home or None).toolkit if cfg.cann else None
    checker = KernelChecker()
    failed = 0
    for path in files:
        result = checker.check_file(path, CheckOptions(include_dirs=extra, soc=cfg.soc))
        if toolkit is not None:
            request = CompileRequest(path.resolve(), soc=cfg.soc, include_dirs=extra)
            result.diagnostics += compile_check(toolkit, request, cfg.compile_timeout_s)
            result.ok = not result.errors
        failed += not result.ok
        if json_out:
            print(json.dumps(result.to_json(), ensure_ascii=False))
        else:
            _print_human(result, warnings)
    if not json_out and len(files) > 1:
        print(f"{len(files) - failed} of {len(files)} files pass")
    if failed:
        raise SystemExit(1)


def verify_config(
    soc: str | None, cann_home: str | None, cann: bool | None, config: Path | None
) -> VerifyConfig:
    """The [verify] settings with the command line's overrides; an unknown --soc is a user error."""
    return load_config(
        VerifyConfig, "verify", cli={"soc": soc, "cann_home": cann_home, "cann": cann}, config_file=config
    )


def register(app: typer.Typer) -> None:
    app.command("check-kernel")(check_kernel)
