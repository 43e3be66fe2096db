"""`curate doctor`: which verifiers this machine can run, and why not when it cannot.

- surface: libclang type check against the project's AscendC surface (libclang version, the
  catalog, and a smoke check: a correct kernel passes, one calling a misspelt API fails);
- cann: the vendor compiler from `--cann-home` / `$ASCEND_HOME_PATH`;
- grounding: the reasoning-vs-facts checks (pure Python, always available).
Always exits 0: it reports, it does not judge.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated

import typer

from annotate.checker.cann import detect, which_compiler
from annotate.reasoning.config import VerifyConfig
from curate.config import load_config

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
        from annotate.checker.catalog import load_catalog, shipped_catalog
        from annotate.checker.clangcheck import CheckOptions, KernelChecker
        from annotate.checker.clangutil import clang_version

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
        from annotate.checker.catalog import load_catalog
        from annotate.reasoning.grounding import grounding_checks

        names = sorted(grounding_checks(load_catalog(), cfg.max_overlap, cfg.min_section_chars))
    except Exception as exc:
        return VerifierStatus("grounding", False, f"unusable: {exc}")
    facts = {"checks": ", ".join(names), "max_overlap": str(cfg.max_overlap)}
    return VerifierStatus("grounding", True, "reasoning checked against the unit's parsed facts", facts)


def doctor_report(cfg: VerifyConfig) -> list[VerifierStatus]:
    return [surface_status(cfg.soc), cann_status(cfg), grounding_status(cfg)]


def doctor(
    cann_home: Annotated[
        str | None, typer.Option("--cann-home", help="CANN toolkit root (default: $ASCEND_HOME_PATH).")
    ] = None,
    soc: Annotated[
        str | None, typer.Option(help="Target SoC: Ascend910B, Ascend950, ... (default auto, per kernel).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per verifier.")] = False,
    config: Annotated[
        Path | None, typer.Option(help="TOML configuration file (default: ./curate.toml).")
    ] = None,
) -> None:
    """List the verifiers, whether each is available here and why (always exits 0)."""
    cfg = load_config(VerifyConfig, "verify", cli={"cann_home": cann_home, "soc": soc}, config_file=config)
    for status in doctor_report(cfg):
        if as_json:
            print(json.dumps(asdict(status), ensure_ascii=False))
            continue
        mark = "available" if status.available else "unavailable"
        print(f"{status.name:<10} {mark:<12} {status.detail}")
        for key, value in status.facts.items():
            print(f"{'':<10} {key}: {value}")


def register(app: typer.Typer) -> None:
    app.command("doctor")(doctor)
