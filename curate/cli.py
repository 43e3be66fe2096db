"""Entry point of the `curate` command. Each command lives in `curate/commands/<name>.py`
and registers itself on the app; this module only assembles them and turns every user mistake
(a bad option, a missing argument, an unknown command, an error the stages raise) into one line
on stderr with exit status 2, never a traceback."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from curate import __version__
from curate.commands import COMMAND_MODULES
from curate.errors import UserError

app = typer.Typer(
    name="curate",
    help="Build Ascend-CoT: ingest AscendC kernels, dedup and decontaminate, annotate, verify, publish.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _print_version(value: bool) -> None:
    if value:
        print(f"curate {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Build Ascend-CoT: ingest AscendC kernels, dedup and decontaminate, annotate, verify, publish."""


for module in COMMAND_MODULES:
    module.register(app)


def _is_click_error(exc: BaseException) -> bool:
    """A click usage or parameter error. typer >= 0.2x vendors its own click, whose exceptions are
    not `click.ClickException`; both carry `exit_code` and `format_message`, so test for those."""
    return hasattr(exc, "format_message") and hasattr(exc, "exit_code")


def _usage_line(exc: Any) -> str:
    """`error: <what is wrong>` plus where to read the usage of the command that was meant."""
    message = " ".join(str(exc.format_message()).split())
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", "") or "curate"
    return f"error: {message} (see `{command} --help`)"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["--help"]  # `curate` alone: the help, exit 0
    try:
        # Without standalone mode click returns (not raises) the exit code of an abort (130).
        code = app(args=args, prog_name="curate", standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except Exception as exc:
        if not _is_click_error(exc):
            raise
        if type(exc).__name__ == "Abort":
            print("interrupted", file=sys.stderr)
            sys.exit(130)
        print(_usage_line(exc), file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
