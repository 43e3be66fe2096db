"""One typed configuration object per stage, loadable from `curate.toml`, environment and CLI.

Precedence, lowest first: the dataclass defaults, the `[stage]` table of `curate.toml` (or the
file given with `--config`), `CURATE_<FIELD>` environment variables, then CLI options that the
user actually gave. Unknown keys are an error, so a typo in the TOML does not pass silently.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
import typing
from pathlib import Path
from typing import Any, TypeVar

from curate.errors import UserError
from schemas.config import ConfigError

C = TypeVar("C")

DEFAULT_CONFIG_FILE = Path("curate.toml")


def _coerce(name: str, tp: Any, raw: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, __import__("types").UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if raw is None or raw == "":
            return None
        tp = args[0]
    if tp is bool and isinstance(raw, str):
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise UserError(f"{name}: expected true or false, got {raw!r}")
    if tp in (int, float, str) and not isinstance(raw, tp):
        try:
            return tp(raw)
        except (TypeError, ValueError):
            raise UserError(f"{name}: expected {tp.__name__}, got {raw!r}") from None
    if typing.get_origin(tp) is list and isinstance(raw, str):
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw


def load_config(
    cls: type[C],
    section: str,
    cli: dict[str, Any] | None = None,
    config_file: Path | None = None,
    environ: typing.Mapping[str, str] | None = None,
) -> C:
    """Build `cls` from defaults < TOML `[section]` < `CURATE_*` env < CLI values that are not None."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    origin: dict[str, str] = {}  # field -> where its value came from, for the error line

    path = config_file or DEFAULT_CONFIG_FILE
    if config_file is not None and not path.exists():
        raise UserError(f"config file {path} does not exist")
    if path.exists():
        try:
            table = tomllib.loads(path.read_text(encoding="utf-8")).get(section, {})
        except (OSError, tomllib.TOMLDecodeError, RecursionError) as exc:  # RecursionError: nested too deep
            raise UserError(f"{path}: not valid TOML ({exc})") from None
        for key, raw in table.items():
            field = key.replace("-", "_")
            if field not in names:
                raise UserError(
                    f"{path}: unknown key {key!r} in [{section}]; known: {', '.join(sorted(names))}"
                )
            origin[field] = f"{path} [{section}] {key}"
            values[field] = _coerce(origin[field], hints[field], raw)

    env = os.environ if environ is None else environ
    for field in names:
        raw = env.get(f"CURATE_{field.upper()}")
        if raw is not None:
            origin[field] = f"CURATE_{field.upper()}"
            values[field] = _coerce(origin[field], hints[field], raw)

    for field, raw in (cli or {}).items():
        if raw is not None:
            origin[field] = f"--{field.replace('_', '-')}"
            values[field] = _coerce(origin[field], hints[field], raw)
    try:
        return cls(**values)
    except ConfigError as exc:  # the config validated itself: say where the bad value was set
        where = origin.get(exc.field, f"[{section}] {exc.field} (default)")
        raise UserError(f"{where}: {exc}") from None
