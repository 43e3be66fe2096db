"""Options that several commands share, defined once so that their names and help agree."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

WorkspaceOption = Annotated[
    Path, typer.Option("--workspace", "-w", help="Workspace directory (tables, reports, journal).")
]
ConfigOption = Annotated[
    Path | None, typer.Option("--config", help="TOML configuration file (default: ./curate.toml).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
SocOption = Annotated[
    str | None,
    typer.Option(
        help="Target SoC: Ascend910B, Ascend950, ... (default auto: Ascend950 for arch35 kernels, else Ascend910B)."
    ),
]
CannHomeOption = Annotated[
    str | None, typer.Option("--cann-home", help="CANN toolkit root (default: $ASCEND_HOME_PATH).")
]
# Matching options of dedup and audit.
ThresholdOption = Annotated[float | None, typer.Option(help="Jaccard threshold (default 0.7).")]
ContainmentOption = Annotated[
    float | None, typer.Option(help="Share of a benchmark kernel found in a unit (default 0.8).")
]
NgramOption = Annotated[int | None, typer.Option(help="Tokens per shingle (default 5).")]
AbstractOption = Annotated[
    bool | None,
    typer.Option("--abstract-identifiers/--keep-identifiers", help="Catch copies with renamed identifiers."),
]
MaxUnitLinesOption = Annotated[
    int | None,
    typer.Option(
        help="Units with more lines than this are not annotated or published (default 4000; 0: no bound)."
    ),
]
CodeFromOption = Annotated[
    str | None,
    typer.Option(
        "--code-from",
        help="Extract code from a text column: text (whole field), fenced (``` blocks), tags "
        "(<kernel_impl>, <code>, <kernel>) or auto (tags, then fences, else the whole field); "
        "each block is compared on its own. Default: the column is code.",
    ),
]
FullEvidenceOption = Annotated[
    bool | None,
    typer.Option(
        "--full-evidence/--bounded-evidence",
        help="Quote every shared line of every pair in leakage.json (default: line ranges and 3 lines).",
    ),
]


def check_code_from(value: str | None) -> str | None:
    """`--code-from` checked against the extraction modes (a usage error names them)."""
    from curate.errors import UserError
    from dedup.extract import MODES

    if value is not None and value not in MODES:
        raise UserError(f"--code-from {value!r} is not a mode; use one of {', '.join(MODES)}")
    return value
