"""Publishing Ascend-CoT: `curate build` turns the workspace into published rows and preference
pairs; `curate push` renders the formats and the card, runs the licence and secret gates, and
writes the repository to a folder and/or commits it to the Hugging Face Hub in one commit."""

from curate.publish.build import BuildResult, build_dataset
from curate.publish.config import FORMATS, BuildConfig, PushConfig
from curate.publish.pipeline import GateBlocked, PushOutcome, run_build, run_push

__all__ = [
    "FORMATS",
    "BuildConfig",
    "BuildResult",
    "GateBlocked",
    "PushConfig",
    "PushOutcome",
    "build_dataset",
    "run_build",
    "run_push",
]
