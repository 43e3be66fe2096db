"""The vendor-compiler backend: compile a kernel with the CANN toolkit's bisheng when it is installed.

Facts used (from the AscendC devkit's CMake modules): the compiler is `bisheng` (older toolkits:
`ccec`) under `<devkit>/ccec_compiler/bin`, where the devkit is `$ASCEND_HOME_PATH/<arch>-linux`,
`.../tools` or `.../compiler`; device code is compiled with `-x cce -std=c++17`,
`--cce-aicore-arch=dav-c220-vec` (vector) or `dav-c220-cube` (cube) for an Ascend910B and
`--cce-aicore-only`, with the devkit's `asc/include/...`, `asc/impl/...` and `tikcpp/tikcfw/...`
include directories. We only ask for a syntax/semantic check (`-fsyntax-only`): no object file.

Diagnostics come back in clang's format (`file:line:col: error: message`) and are reported in the
same shape as the libclang checker's.
"""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from schemas import Diagnostic
from schemas.ascendc.includes import local_include_dirs
from schemas.ascendc.soc import AUTO_SOC, resolve_soc, soc_profile

COMPILER_NAMES = ("bisheng", "ccec")
_DIAG_RE = re.compile(
    r"^(?P<file>[^\n:]+):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<severity>fatal error|error|warning|note):\s*(?P<message>.*)$"
)
_CUBE_MARKERS = re.compile(
    r"\bASCENDC_CUBE_ONLY\b|KERNEL_TYPE_AIC_ONLY|\bMmad\s*\(|\bLoadData\s*\(|\bFixpipe\b"
)
# Relative to the devkit: the device include directories of the AscendC build.
DEVKIT_INCLUDE_DIRS = (
    "asc/impl/adv_api",
    "asc/impl/basic_api",
    "asc/impl/c_api",
    "asc/impl/basic_api/reg_compute",
    "asc/impl/simt_api",
    "asc/impl/utils",
    "asc",
    "asc/include",
    "asc/include/adv_api",
    "asc/include/basic_api",
    "asc/include/aicpu_api",
    "asc/include/c_api",
    "asc/include/basic_api/reg_compute",
    "asc/include/simt_api",
    "asc/include/utils",
    "tikcpp/tikcfw",
    "tikcpp/tikcfw/interface",
    "tikcpp/tikcfw/impl",
)


@dataclass(frozen=True, slots=True)
class Toolkit:
    home: Path
    devkit: Path
    compiler: Path

    def include_dirs(self) -> list[Path]:
        dirs = [self.devkit / rel for rel in DEVKIT_INCLUDE_DIRS]
        dirs.append(self.home / "include")
        return [d for d in dirs if d.is_dir()]


@dataclass(frozen=True, slots=True)
class Detection:
    toolkit: Toolkit | None
    reason: str  # why it is (not) available, for `curate doctor`


def _devkit_candidates(home: Path) -> list[Path]:
    arch = platform.machine().lower()
    arch = {"arm64": "aarch64", "amd64": "x86_64"}.get(arch, arch)
    return [home / f"{arch}-linux", home / "tools", home / "compiler", home / "ascendc_devkit", home]


def detect(cann_home: str | Path | None = None) -> Detection:
    """Find the vendor compiler from `--cann-home`, else `$ASCEND_HOME_PATH`."""
    source = "--cann-home" if cann_home else "ASCEND_HOME_PATH"
    raw = str(cann_home) if cann_home else os.environ.get("ASCEND_HOME_PATH", "")
    if not raw:
        return Detection(None, "no CANN toolkit: set ASCEND_HOME_PATH or pass --cann-home")
    home = Path(raw).expanduser()
    if not home.is_dir():
        return Detection(None, f"{source}={home} is not a directory")
    for devkit in _devkit_candidates(home):
        for name in COMPILER_NAMES:
            compiler = devkit / "ccec_compiler" / "bin" / name
            if compiler.is_file() and os.access(compiler, os.X_OK):
                return Detection(Toolkit(home, devkit, compiler), f"{compiler} ({source})")
    return Detection(None, f"{source}={home} has no ccec_compiler/bin/bisheng under its devkit directories")


@dataclass(slots=True)
class CompileRequest:
    source: Path
    soc: str = AUTO_SOC
    include_dirs: list[Path] = field(default_factory=list)
    defines: dict[str, str] = field(default_factory=dict)
    cube: bool | None = None  # None: decide from the source text


def is_cube_kernel(text: str) -> bool:
    return bool(_CUBE_MARKERS.search(text))


def build_command(toolkit: Toolkit, request: CompileRequest, text: str = "") -> list[str]:
    """The compiler invocation for one kernel file (device code only, syntax check)."""
    profile = soc_profile(resolve_soc(request.soc, [str(request.source), text]))
    cube = request.cube if request.cube is not None else is_cube_kernel(text)
    arch = profile.cce_arch_cube if cube else profile.cce_arch
    command = [
        str(toolkit.compiler),
        "-fsyntax-only",
        "-x",
        "cce",
        "-std=c++17",
        f"--cce-aicore-arch={arch}",
        "--cce-aicore-only",
        "-DTILING_KEY_VAR=0",
    ]
    command += [f"-D{k}={v}" for k, v in sorted(request.defines.items())]
    local = local_include_dirs(request.source, request.include_dirs) if request.source.exists() else []
    command += [f"-I{d}" for d in [*local, *request.include_dirs] if d]
    command += [f"-I{d}" for d in toolkit.include_dirs()]
    command.append(str(request.source))
    return command


def parse_output(output: str, display: dict[str, str] | None = None) -> list[Diagnostic]:
    """Clang-format compiler output -> diagnostics (notes are kept as notes)."""
    found: list[Diagnostic] = []
    for raw in output.splitlines():
        match = _DIAG_RE.match(raw.strip())
        if not match:
            continue
        severity = match.group("severity")
        message = match.group("message").strip()
        file = match.group("file")
        path = (display or {}).get(file, file)
        line = int(match.group("line"))
        if "file not found" in message:
            # The real compiler stops at a missing include: the result is inconclusive, not a verdict.
            found.append(Diagnostic("cann.include", "warning", message, path, line))
            continue
        level = "error" if severity in ("error", "fatal error") else severity
        found.append(Diagnostic("cann", level, message, path, line))
    return found


def compile_check(toolkit: Toolkit, request: CompileRequest, timeout_s: float = 120.0) -> list[Diagnostic]:
    """Run the vendor compiler on one file; failures to run are reported, never raised."""
    text = request.source.read_text(encoding="utf-8", errors="replace") if request.source.exists() else ""
    command = build_command(toolkit, request, text)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        return [
            Diagnostic(
                "cann",
                "warning",
                f"the vendor compiler timed out after {timeout_s:.0f} s",
                str(request.source),
            )
        ]
    except OSError as exc:
        return [
            Diagnostic("cann", "warning", f"the vendor compiler could not run: {exc}", str(request.source))
        ]
    found = parse_output(proc.stderr + "\n" + proc.stdout, {str(request.source): str(request.source)})
    if proc.returncode != 0 and not any(d.severity == "error" for d in found):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        found.append(
            Diagnostic("cann", "error", f"the vendor compiler failed: {tail[0]}", str(request.source))
        )
    return found


def which_compiler() -> str | None:
    """A bisheng on PATH (reported by `curate doctor` as a hint when no toolkit is configured)."""
    for name in COMPILER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None
