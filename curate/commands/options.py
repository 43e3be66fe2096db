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
    from curate.errors import UserError
    from dedup.extract import MODES

    if value is not None and value not in MODES:
        raise UserError(f"--code-from {value!r} is not a mode; use one of {', '.join(MODES)}")
    return value


# The [verify] options `verify` and `check-kernel` take (the rest of [verify] is curate.toml's).
VERIFY_OPTIONS = ("soc", "cann_home", "cann")


def plain_flag_help() -> None:
    """Flags show no value type in `--help`. typer's rich help prints a type beside every option,
    flags included (`--version <bool>`, `--json <bool>`), though a flag takes no value. Called once
    where the app is built; a typer without the hook is left as it is."""
    option = getattr(typer.core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "plain_flags", False):
        return

    def display_type_rich(self: typer.core.TyperOption, ctx: typer.core._click.Context) -> str | None:
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        return shown(self, ctx)

    display_type_rich.plain_flags = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich
