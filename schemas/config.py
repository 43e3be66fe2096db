"""The one error every stage configuration raises when a value cannot work.

Configurations validate themselves once, at construction (`__post_init__`). The error names the
field, so the CLI can say where the bad value came from (an option, an environment variable or
a curate.toml key) in one line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any


class ConfigError(ValueError):
    """`field` is the dataclass field; the message says what is wrong and what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def option(
    default: Any = dataclasses.MISSING,
    help: str = "",
    *,
    flag: str = "",
    factory: Callable[[], Any] | None = None,
) -> Any:
    """A configuration field that is also a command-line option, declared once: its default and
    its help (and, when the option is not spelt `--field-name`, its flag, e.g.
    "--abstract-identifiers/--keep-identifiers"). The CLI builds the option from this field
    (`curate.commands.config_options`); the default shown in `--help` is the field's."""
    metadata = {"help": help, "flag": flag}
    if factory is not None:
        return dataclasses.field(default_factory=factory, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


MAX_UNIT_LINES_HELP = "Units with more lines than this are not annotated or published (0: no bound)."
