"""The project's AscendC surface headers and the clang command line that uses them.

The headers in `surface/` declare the AscendC programming interface (written for curate from the
public interface; no vendor code). `kernel_operator.h` is the entry name kernels include; the
`libc/` directory answers the few C++ standard headers device code includes, because the checker
runs with `-nostdinc` so that results never depend on the machine's system headers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from schemas.ascendc import KEYWORDS_HEADER

SURFACE_DIR = Path(__file__).resolve().parent / "surface"
PRELUDE = SURFACE_DIR / "asc_prelude.h"
ENTRY_HEADERS = ("kernel_operator.h", "lib/matmul_intf.h", "tikicpulib.h")
# The compiler's built-ins, as the surface declares them (catalog entries name this header).
BUILTINS_HEADER = "ascendc/intrinsics.h"


@dataclass(frozen=True, slots=True)
class SocProfile:
    """Preprocessor facts of one SoC family: which `#if` branches of a kernel are compiled."""

    name: str
    cce_aicore: int
    npu_arch: int
    dav_macro: str
    cce_arch: str  # vendor compiler --cce-aicore-arch value for vector kernels
    cce_arch_cube: str  # ... and for cube kernels


SOC_PROFILES: dict[str, SocProfile] = {
    "ascend910b": SocProfile("Ascend910B", 220, 2201, "__DAV_C220_VEC__", "dav-c220-vec", "dav-c220-cube"),
    "ascend910_93": SocProfile(
        "Ascend910_93", 220, 2201, "__DAV_C220_VEC__", "dav-c220-vec", "dav-c220-cube"
    ),
    "ascend910": SocProfile("Ascend910", 100, 1001, "__DAV_C100__", "dav-c100", "dav-c100"),
    "ascend310p": SocProfile("Ascend310P", 200, 2002, "__DAV_M200__", "dav-m200-vec", "dav-m200"),
    "ascend310b": SocProfile("Ascend310B", 300, 3002, "__DAV_M300__", "dav-m300", "dav-m300"),
    "ascend950": SocProfile("Ascend950", 310, 3510, "__DAV_C310__", "dav-c310-vec", "dav-c310-cube"),
}
DEFAULT_SOC = "Ascend910B"
AUTO_SOC = "auto"  # Ascend950 for arch35 kernels (`*_apt.cpp`, `arch35/` sources), else DEFAULT_SOC
_ARCH35_RE = re.compile(
    r"(?:^|/)arch35/|_apt\.(?:cpp|h)$|^[ \t]*#[ \t]*include[ \t]*[\"<][^\">]*arch35/", re.MULTILINE
)


def resolve_soc(soc: str, sources: Iterable[str]) -> str:
    """The SoC to check for: as given, or with `auto` chosen from the unit's file names and texts
    (ops repositories keep the Ascend950 variant of an operator in `arch35/` and `*_apt.cpp`)."""
    if soc.strip().lower() not in ("", AUTO_SOC):
        return soc
    return "Ascend950" if any(_ARCH35_RE.search(s) for s in sources) else DEFAULT_SOC


def soc_profile(soc: str) -> SocProfile:
    """Accepts family names and concrete chips: Ascend910B, ascend910b3, Ascend950PR_9599, ...
    (`auto` is accepted and means the default family)."""
    key = soc.strip().lower()
    if key in ("", AUTO_SOC):
        key = DEFAULT_SOC.lower()
    for prefix in sorted(SOC_PROFILES, key=len, reverse=True):
        if key.startswith(prefix):
            return SOC_PROFILES[prefix]
    known = ", ".join(p.name for p in SOC_PROFILES.values())
    raise ValueError(f"unknown SoC {soc!r}; known families: {known}")


def surface_include_dirs() -> list[Path]:
    return [SURFACE_DIR, SURFACE_DIR / "libc"]


def is_surface_file(path: str) -> bool:
    """A file of the surface, or the shared language prelude the surface builds on."""
    try:
        resolved = Path(path).resolve()
        return resolved.is_relative_to(SURFACE_DIR) or resolved == KEYWORDS_HEADER
    except (OSError, ValueError):
        return False


def base_args(soc: str = DEFAULT_SOC) -> list[str]:
    """Flags shared by every parse: C++17 without system headers, AscendC keywords predefined."""
    profile = soc_profile(soc)
    return [
        "-x",
        "c++",
        "-std=c++17",
        "-nostdinc",
        "-nostdinc++",
        "-ferror-limit=0",
        "-fspell-checking",
        "-w",
        "-include",
        str(KEYWORDS_HEADER),
        "-include",
        str(PRELUDE),
        f"-D__CCE_AICORE__={profile.cce_aicore}",
        f"-D__NPU_ARCH__={profile.npu_arch}",
        f"-D{profile.dav_macro}",
        "-DTILING_KEY_VAR=0",
    ]
