"""Publishing Ascend-CoT (the library behind `curate.stages.build` and `curate.stages.push`): `curate build` turns the workspace into published rows and preference
pairs; `curate push` renders the formats and the card, runs the licence and secret gates, and
writes the repository to a folder and/or commits it to the Hugging Face Hub in one commit."""

from curate.publish.build import BuildInputs, BuildResult, build_rows
from curate.publish.publish_config import FORMATS, BuildConfig, PushConfig

__all__ = [
    "FORMATS",
    "BuildConfig",
    "BuildInputs",
    "BuildResult",
    "PushConfig",
    "build_rows",
]
