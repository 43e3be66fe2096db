"""Entry point of the `curate` command. Each command lives in `curate/commands/<name>.py`
and registers itself on the app; this module only assembles them and turns user errors into
one line on stderr with a non-zero exit code."""

from __future__ import annotations

import sys

import typer

from curate.commands import COMMAND_MODULES
from curate.errors import UserError

app = typer.Typer(
    name="curate",
    help="Build Ascend-CoT: ingest AscendC kernels, dedup and decontaminate, annotate, verify, publish.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

for module in COMMAND_MODULES:
    module.register(app)


def main() -> None:
    try:
        # Without standalone mode click returns (not raises) the exit code of an abort (130).
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        sys.exit(130)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    except __import__("click").ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
