"""Typed configuration of `curate build` and `curate push` (defaults < curate.toml < CURATE_* < CLI)."""

from __future__ import annotations

from dataclasses import dataclass, field

FORMATS = ("raw", "alpaca", "messages", "preference")


@dataclass(slots=True)
class BuildConfig:
    """`[build]` in curate.toml."""

    validation_ratio: float = 0.1  # share of operators (not rows) that go to the validation split
    split_salt: str = "ascend-cot"  # change it to draw a different, still deterministic, split
    include_rejected: bool = False  # also keep rejected annotations (published as the `rejected` config)


@dataclass(slots=True)
class PushConfig:
    """`[push]` in curate.toml. The Hub token is never part of it: it comes from HF_TOKEN or the
    standard `hf auth login`, and is never written anywhere."""

    repo_id: str = ""
    to_dir: str = ""
    private: bool = False
    revision: str = "main"
    commit_message: str = ""
    allow_license: list[str] = field(default_factory=list)  # SPDX ids or known names
    formats: list[str] = field(default_factory=lambda: list(FORMATS))
    pretty_name: str = "Ascend-CoT"
    shard_rows: int = 2000  # rows per parquet shard
    ignore_finding: list[str] = field(default_factory=list)  # ids of secret-gate findings judged false
