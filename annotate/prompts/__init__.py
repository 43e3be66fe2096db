"""Versioned prompt templates, shipped as package data (`annotate/prompts/<version>/*.md`).

A template is `string.Template` text (`$name` placeholders): kernel code is full of braces, so
str.format-style templates would be fragile, and substituted values are never re-parsed. A change
to any wording means a new version directory; the version is part of every cache key and is
recorded with every annotation, so old and new answers never mix silently.
"""

from __future__ import annotations

import functools
import string
from importlib import resources

PROMPT_VERSION = "v2"  # v2: instructions state the operator semantics from its documentation


@functools.cache
def template(name: str, version: str = PROMPT_VERSION) -> string.Template:
    """The template `<version>/<name>.md`, with its final newline removed."""
    path = resources.files(__package__).joinpath(version, f"{name}.md")
    return string.Template(path.read_text(encoding="utf-8").rstrip("\n"))


def render(name: str, version: str = PROMPT_VERSION, **values: object) -> str:
    """Fill a template; a missing value is a KeyError (a template bug, caught by the tests)."""
    return template(name, version).substitute({key: str(value) for key, value in values.items()})
