"""Entry point of the `curate` command. Each command lives in `curate/commands/<name>.py` and
registers itself on the app; `curate.commands.COMMANDS` names them, and a command's module is
imported only when that command is resolved (run, or its help asked for), so that `curate --help`
and `curate --version` answer without importing any stage or its libraries. This module turns
every user mistake (a bad option, a missing argument, an unknown command, an error the stages
raise) into one line on stderr with exit status 2, never a traceback."""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys
from types import FrameType
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from curate import __version__
from curate.commands import COMMANDS
from curate.errors import UserError


class LazyCommands(TyperGroup):
    """The root group: every command of COMMANDS is listed by its summary, and its module is
    imported (and the command built by typer) only when the command is resolved."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        for name, entry in COMMANDS.items():  # placeholders: enough for the root help and suggestions
            self.commands.setdefault(name, TyperCommand(name, help=entry.summary, short_help=entry.summary))
        self._loaded: set[str] = set()

    def load(self, name: str) -> Any:
        """The real command `name` (its module imported once, its `register` run on a sub-app)."""
        if name in COMMANDS and name not in self._loaded:
            sub = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
            importlib.import_module(COMMANDS[name].module).register(sub)
            command = typer.main.get_command(sub)
            command.short_help = COMMANDS[name].summary
            self.commands[name] = command
            self._loaded.add(name)
        return self.commands.get(name)

    def get_help_option(self, ctx: Any) -> Any:
        """typer coerces an absent flag whose value is None through a pydantic adapter, which
        imports pydantic (0.1-0.3 s) on every `curate X ...`; an absent --help read as False is
        left as it is."""
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            option.default = False
        return option

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
        if args and args[0] in COMMANDS:
            self.load(args[0])
        return super().resolve_command(ctx, args)


app = typer.Typer(
    cls=LazyCommands,
    rich_markup_mode=None,
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


def _is_click_error(exc: BaseException) -> bool:
    """A click usage or parameter error. typer >= 0.2x vendors its own click, whose exceptions are
    not `click.ClickException`; both carry `exit_code` and `format_message`, so test for those."""
    return hasattr(exc, "format_message") and hasattr(exc, "exit_code")


def _is_table_error(exc: BaseException) -> bool:
    """A table that cannot be read as its schema says (`schemas.TableError`). Tested without
    importing `schemas` here: it imports pyarrow, which `curate --help` must not pay for; a
    TableError can only have been raised once its module was loaded."""
    tables = sys.modules.get("schemas.tables")
    return tables is not None and isinstance(exc, tables.TableError)


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
        if _is_table_error(exc):
            print(f"error: {exc}", file=sys.stderr)
            sys.exit(2)
        if not _is_click_error(exc):
            raise
        if type(exc).__name__ == "Abort":
            _interrupted(args)
        print(_usage_line(exc), file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
