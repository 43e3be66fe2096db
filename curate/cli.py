"""Entry point of the `curate` command. Each command lives in `curate/commands/<name>.py`
and registers itself on the app; this module only assembles them and turns every user mistake
(a bad option, a missing argument, an unknown command, an error the stages raise) into one line
on stderr with exit status 2, never a traceback."""

from __future__ import annotations

import errno
import os
import signal
import sys
from types import FrameType
from typing import Annotated, Any

import typer

from curate import __version__
from curate.commands import COMMAND_MODULES
from curate.errors import UserError
from schemas import TableError

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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so it unwinds as Ctrl-C does: workers are ended,
    temporary files removed, locks released (KeyboardInterrupt handlers treat it the same)."""


_SIGNALLED: list[int] = []  # the stop signals received (click turns their exceptions into exit 130)


def _on_stop_signal(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C or SIGTERM: unwind from wherever the program is (a second one ends it at once)."""
    _SIGNALLED.append(signum)
    signal.signal(signum, signal.SIG_DFL)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


# What an interrupted command leaves behind. Every table is replaced whole (a temporary file
# renamed at the end), so an interrupted step has written nothing; annotate journals each answer.
_KEPT = {
    "annotate": "answers already judged are kept in annotate.sqlite; the same command resumes from them",
    "run": "finished steps are recorded in WORKSPACE/recipe-run.json; the same command resumes after them",
}
_KEPT_DEFAULT = "nothing of this run was written (tables are replaced whole); run the same command again"


def _interrupted(args: list[str]) -> None:
    """The one line, then exit at once. Everything the command held was released while the
    interrupt unwound (workers ended, temporary files removed, the lock freed); what is left is
    the interpreter's teardown of its modules, over a second on a busy machine, and a user
    who pressed Ctrl-C should get the prompt back now."""
    terminated = signal.SIGTERM in _SIGNALLED
    command = next((a for a in args if not a.startswith("-")), "curate")
    how = "terminated (SIGTERM)" if terminated else "interrupted (Ctrl-C)"
    print(f"{how}: {_KEPT.get(command, _KEPT_DEFAULT)}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(143 if terminated else 130)


def _os_error_line(exc: OSError) -> str | None:
    """One line for a workspace the command cannot write (read-only, full, not ours), or None."""
    if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT):
        return None
    where = f" {exc.filename}" if exc.filename else ""
    return f"error: cannot write{where}: {exc.strerror}; nothing was changed by this command"


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        args = ["--help"]  # `curate` alone: the help, exit 0
    signal.signal(signal.SIGTERM, _on_stop_signal)
    signal.signal(signal.SIGINT, _on_stop_signal)
    try:
        # Without standalone mode click returns (not raises) the exit code of an abort (130).
        code = app(args=args, prog_name="curate", standalone_mode=False)
        if code == 130 or _SIGNALLED:
            _interrupted(args)
        if isinstance(code, int) and code:
            sys.exit(code)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except TableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        _interrupted(args)
    except OSError as exc:
        line = _os_error_line(exc)
        if line is None:
            raise
        print(line, file=sys.stderr)
        sys.exit(2)
    except Exception as exc:
        if not _is_click_error(exc):
            raise
        if type(exc).__name__ == "Abort":
            _interrupted(args)
        print(_usage_line(exc), file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
