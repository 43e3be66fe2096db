"""Publishing Ascend-CoT (the library behind `curate.stages.build` and `curate.stages.push`): `curate build` turns the workspace into published rows and preference
pairs; `curate push` renders the formats and the card, runs the licence and secret gates, and
writes the repository to a folder and/or commits it to the Hugging Face Hub in one commit."""

import importlib
from typing import TYPE_CHECKING, Any

from curate.publish.publish_config import FORMATS, BuildConfig, PushConfig

if TYPE_CHECKING:
    from curate.publish.build import BuildInputs, BuildResult, build_rows


def __getattr__(name: str) -> Any:
    """The build side is imported when first used: the commands import the configs for their
    options, and `curate build --help` need not import the row builder."""
    if name in ("BuildInputs", "BuildResult", "build_rows"):
        return getattr(importlib.import_module("curate.publish.build"), name)
    raise AttributeError(f"module 'curate.publish' has no attribute {name!r}")


__all__ = [
    "FORMATS",
    "BuildConfig",
    "BuildInputs",
    "BuildResult",
    "PushConfig",
    "build_rows",
]
