"""The doctor stage: which verifiers this machine can run, and why not when it cannot.

- surface: libclang type check against the project's AscendC surface (libclang version, the
  catalog, and a smoke check: a correct kernel passes, one calling a misspelt API fails);
- cann: the vendor compiler from `--cann-home` / `$ASCEND_HOME_PATH`;
- grounding: the reasoning-vs-facts checks (pure Python, always available).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from annotate.checker import detect, which_compiler
from annotate.reasoning import VerifyConfig

_SMOKE_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void smoke(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<half> gm;
    gm.SetGlobalBuffer((__gm__ half *)x, 16);
    AscendC::LocalTensor<half> a, b;
    AscendC::{api}(b, a, a, 16);
}
"""


@dataclass
class VerifierStatus:
    name: str
    available: bool
    detail: str
    facts: dict[str, str] = field(default_factory=dict)


def surface_status(soc: str) -> VerifierStatus:
    try:
        from annotate.checker import CheckOptions, KernelChecker, load_catalog
        from schemas.ascendc.catalog import shipped_catalog
        from schemas.ascendc.cursors import clang_version

        version = clang_version()
        fresh = shipped_catalog() is not None
        catalog = load_catalog()
        checker = KernelChecker(catalog)
        options = CheckOptions(soc=soc)
        good = checker.check_source(_SMOKE_KERNEL.replace("{api}", "Add"), "smoke.cpp", options)
        bad = checker.check_source(_SMOKE_KERNEL.replace("{api}", "Addd"), "smoke.cpp", options)
    except Exception as exc:  # libclang missing or broken: say why
        return VerifierStatus("surface", False, f"libclang unusable: {exc}")
    facts = {
        "libclang": version,
        "catalog": f"{len(catalog.entries)} entries"
        + ("" if fresh else " (catalog.json stale or missing: rebuilt from the headers)"),
        "soc": soc,
    }
    if not good.ok or bad.ok:
        why = "a correct kernel fails" if not good.ok else "a misspelt API passes"
        return VerifierStatus("surface", False, f"smoke check failed: {why}", facts)
    return VerifierStatus("surface", True, "libclang type check against the AscendC surface", facts)


def cann_status(cfg: VerifyConfig) -> VerifierStatus:
    if not cfg.cann:
        return VerifierStatus("cann", False, "disabled (--no-cann or [verify] cann = false)")
    detection = detect(cfg.cann_home or None)
    if detection.toolkit is None:
        hint = which_compiler()
        reason = detection.reason + (f"; a {Path(hint).name} is on PATH at {hint}" if hint else "")
        return VerifierStatus("cann", False, reason)
    return VerifierStatus("cann", True, f"vendor compiler {detection.reason}", {"soc": cfg.soc})


def grounding_status(cfg: VerifyConfig) -> VerifierStatus:
    try:
        from annotate.checker import load_catalog
        from annotate.reasoning.grounding import grounding_checks

        names = sorted(grounding_checks(load_catalog(), cfg.max_overlap, cfg.min_section_chars))
    except Exception as exc:
        return VerifierStatus("grounding", False, f"unusable: {exc}")
    facts = {"checks": ", ".join(names), "max_overlap": str(cfg.max_overlap)}
    return VerifierStatus("grounding", True, "reasoning checked against the unit's parsed facts", facts)


def doctor_report(cfg: VerifyConfig) -> list[VerifierStatus]:
    return [surface_status(cfg.soc), cann_status(cfg), grounding_status(cfg)]
