"""Command-line options built from a configuration dataclass, so that each option is written once.

A config field declared with `schemas.config.option(default, help, flag=...)` becomes a typer
option of the command: its flag (default `--field-name`; a bool gets `--x/--no-x` unless the
field names another pair), its type, and its help with the field's default appended. Every such
option defaults to None on the command line, so that only an option the user gave overrides
curate.toml and CURATE_* (`curate.settings.load_config`: defaults < [section] < env < CLI).

    @config_command(DedupConfig, "dedup")
    def dedup(cfg: DedupConfig, workspace: WorkspaceOption = DEFAULT_WORKSPACE, ...) -> None:

The decorated function receives the loaded config as its first argument; the CLI signature is
its other parameters, then the config's options, then `--config` (unless it declares `config`
itself, which it then receives too). A parameter named `given` is not an option: it receives the
config options the user gave on the command line.

Option groups that are not configuration (they come from the command line only, never from
curate.toml), such as the subset flags of `curate.selection.Subset`, are declared the same way, as
`option` fields of a dataclass, and added with `groups={"subset": (Subset, FIELDS)}`: the command
then receives `subset=Subset(<the flags given>)`.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from curate.commands.options import ConfigOption
from curate.settings import load_config


def _flag(field: dataclasses.Field[Any], base: Any, flags: Mapping[str, str]) -> str:
    flag = flags.get(field.name) or str(field.metadata.get("flag", ""))
    if flag:
        return flag
    dashed = field.name.replace("_", "-")
    return f"--{dashed}/--no-{dashed}" if base is bool else f"--{dashed}"


def _default(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return None


def _shown(value: Any) -> str:
    """The default as `--help` shows it (nothing for the empty values: the help says what they mean)."""
    if value in ("", None, []) or isinstance(value, bool):
        return ""
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


def _help(field: dataclasses.Field[Any], helps: Mapping[str, str]) -> str:
    text = helps.get(field.name) or str(field.metadata.get("help", ""))
    shown = _shown(_default(field))
    if not shown or "default" in text:
        return text
    return f"{text.removesuffix('.')} (default: {shown})."


def _base(tp: Any) -> Any:
    args = [a for a in typing.get_args(tp) if a is not type(None)]
    return args[0] if typing.get_origin(tp) in (typing.Union, __import__("types").UnionType) else tp


def option_fields(
    cls: type[Any], only: Iterable[str] | None = None, helps: Mapping[str, str] | None = None
) -> list[dataclasses.Field[Any]]:
    """The fields of `cls` that are options: those with a help (in metadata or in `helps`),
    restricted to `only` when given, in declaration order."""
    helps = helps or {}
    wanted = set(only) if only is not None else None
    fields = [
        f
        for f in dataclasses.fields(cls)
        if (wanted is None or f.name in wanted) and (f.metadata.get("help") or f.name in helps)
    ]
    if wanted is not None and (missing := wanted - {f.name for f in fields}):
        raise TypeError(f"{cls.__name__}: no help declared for option(s) {', '.join(sorted(missing))}")
    return fields


def option_parameters(
    cls: type[Any],
    only: Iterable[str] | None = None,
    helps: Mapping[str, str] | None = None,
    flags: Mapping[str, str] | None = None,
) -> list[inspect.Parameter]:
    """The typer parameters of the option fields of `cls` (each defaulting to None)."""
    hints = typing.get_type_hints(cls)
    params = []
    for field in option_fields(cls, only, helps):
        base = _base(hints[field.name])
        info = typer.Option(
            _flag(field, base, flags or {}), help=_help(field, helps or {}), metavar=_metavar(base)
        )
        params.append(
            inspect.Parameter(
                field.name,
                inspect.Parameter.KEYWORD_ONLY,
                default=None,
                annotation=Annotated[base | None, info],
            )
        )
    return params


def _metavar(base: Any) -> str | None:
    """A repeatable option shows its item's type (`--source <str>`), not `<list[str]>`."""
    if typing.get_origin(base) is list and (args := typing.get_args(base)):
        return f"<{getattr(args[0], '__name__', 'str').lower()}>"
    return None  # typer's own


def _split(values: Any) -> Any:
    """Repeated list options, each possibly comma-separated (`--allow-license MIT,Apache-2.0`)."""
    if not isinstance(values, list):
        return values
    return [part.strip() for value in values for part in str(value).split(",") if part.strip()] or None


def config_command(
    cls: type[Any],
    section: str,
    *,
    only: Iterable[str] | None = None,
    helps: Mapping[str, str] | None = None,
    flags: Mapping[str, str] | None = None,
    groups: Mapping[str, tuple[type[Any], Iterable[str] | None]] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a command whose first parameter is the loaded `cls` (see the module docstring).
    `helps` and `flags` stand in for field metadata a config does not declare (yet); `groups`
    maps a parameter name to a dataclass of command-line-only options (and the fields taken)."""
    generated = option_parameters(cls, only, helps, flags)
    names = [p.name for p in generated]
    grouped = {name: option_parameters(group, fields) for name, (group, fields) in (groups or {}).items()}
    group_names = [p.name for params in grouped.values() for p in params]
    if clash := set(names) & set(group_names):
        raise TypeError(f"{', '.join(sorted(clash))} both a config option and a group option")

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        own = list(inspect.signature(func, eval_str=True).parameters.values())[1:]
        takes_given = any(p.name == "given" for p in own)
        own = [p for p in own if p.name != "given" and p.name not in grouped]  # filled in, not options
        takes_config = any(p.name == "config" for p in own)
        tail = (
            []
            if takes_config
            else [
                inspect.Parameter(
                    "config", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=ConfigOption
                )
            ]
        )
        clash = {p.name for p in own} & (set(names) | set(group_names))
        if clash:
            raise TypeError(
                f"{func.__name__}: {', '.join(sorted(clash))} both a parameter and a config option"
            )
        extra = [p for params in grouped.values() for p in params]
        params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + generated + extra + tail

        def command(**kwargs: Any) -> Any:
            cli = {name: _split(kwargs.pop(name)) for name in names}
            for group_name, group_params in grouped.items():
                values = {p.name: _split(kwargs.pop(p.name)) for p in group_params}
                group_cls = (groups or {})[group_name][0]
                kwargs[group_name] = group_cls(**{k: v for k, v in values.items() if v is not None})
            config_file: Path | None = kwargs["config"] if takes_config else kwargs.pop("config")
            cfg = load_config(cls, section, cli=cli, config_file=config_file)
            if takes_given:  # the options the user gave, for a second config loaded beside this one
                kwargs["given"] = {name: value for name, value in cli.items() if value is not None}
            return func(cfg, **kwargs)

        command.__name__ = func.__name__
        command.__qualname__ = func.__qualname__
        command.__doc__ = func.__doc__
        command.__module__ = func.__module__
        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in params}
        return command

    return decorate
