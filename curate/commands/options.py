"""Options that several commands share, defined once so that their names and help agree."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
import typer.core

WorkspaceOption = Annotated[
    Path, typer.Option("--workspace", "-w", help="Workspace directory (tables, reports, journal).")
]
ConfigOption = Annotated[
    Path | None, typer.Option("--config", help="TOML configuration file (default: ./curate.toml).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]
EngineOption = Annotated[
    str,
    typer.Option(
        help="local: this process; ray: the same stage functions as Ray Data tasks (a local runtime, "
        "or the cluster at RAY_ADDRESS), with the local engine's results."
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
    from curate.code_blocks import MODES
    from curate.errors import UserError

    if value is not None and value not in MODES:
        raise UserError(f"--code-from {value!r} is not a mode; use one of {', '.join(MODES)}")
    return value


# The [verify] options `verify` and `check-kernel` take (the rest of [verify] is curate.toml's).
VERIFY_OPTIONS = ("soc", "cann_home", "cann")
