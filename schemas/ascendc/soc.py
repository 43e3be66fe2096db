"""The SoC families AscendC code is written for, defined once.

A kernel's `#if __CCE_AICORE__ == 220` / `__NPU_ARCH__` / `__DAV_C220_VEC__` branches decide
which code a build compiles. Both libclang users take the preprocessor facts of one family from
here: the ingest parser parses every kernel as the default family sees it (and records those
defines per unit), the checker parses as the SoC it is asked for (or the one `auto` picks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SocProfile:
    """Preprocessor facts of one SoC family: which `#if` branches of a kernel are compiled."""

    name: str
    cce_aicore: int
    npu_arch: int
    dav_macro: str
    cce_arch: str  # vendor compiler --cce-aicore-arch value for vector kernels
    cce_arch_cube: str  # ... and for cube kernels

    def defines(self) -> list[str]:
        """The family's macros as `-D` values (`NAME=VALUE` or `NAME`)."""
        return [f"__CCE_AICORE__={self.cce_aicore}", f"__NPU_ARCH__={self.npu_arch}", self.dav_macro]


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
