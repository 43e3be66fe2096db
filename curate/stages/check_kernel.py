"""The check-kernel stage: type-check kernel files against the AscendC API surface (and with the
vendor compiler when a CANN toolkit is found). No workspace: files in, one result per file out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from annotate.checker import CheckOptions, CheckResult, CompileRequest, KernelChecker, compile_check, detect
from annotate.reasoning import VerifyConfig
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


def check_kernels(files: list[Path], config: VerifyConfig, include: list[Path]) -> Iterator[CheckResult]:
    """One result per file, in order, as each is checked."""
    extra = [p.resolve() for p in include]
    for d in extra:
        if not d.is_dir():
            raise UserError(f"-I {d} is not a directory")
    toolkit = detect(config.cann_home or None).toolkit if config.cann else None
    checker = KernelChecker()
    for path in files:
        result = checker.check_file(path, CheckOptions(include_dirs=extra, soc=config.soc))
        if toolkit is not None:
            request = CompileRequest(path.resolve(), soc=config.soc, include_dirs=extra)
            result.diagnostics += compile_check(toolkit, request, config.compile_timeout_s)
            result.ok = not result.errors
        yield result
