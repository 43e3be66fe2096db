"""`curate doctor`: which verifiers this machine can run, and why not when it cannot.
Always exits 0: it reports, it does not judge."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Annotated

import typer

from annotate.reasoning import VerifyConfig
from curate.commands.config_options import config_command


@config_command(VerifyConfig, "verify", only=("soc", "cann_home"))
def doctor(
    cfg: VerifyConfig,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per verifier.")] = False,
) -> None:
    """List the verifiers, whether each is available here and why (always exits 0)."""
    from curate.stages.doctor import doctor_report  # imported when the command runs

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
