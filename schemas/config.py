"""The one error every stage configuration raises when a value cannot work.

Configurations validate themselves once, at construction (`__post_init__`). The error names the
field, so the CLI can say where the bad value came from (an option, an environment variable or
a curate.toml key) in one line.
"""

from __future__ import annotations


class ConfigError(ValueError):
    """`field` is the dataclass field; the message says what is wrong and what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
