"""Typed configuration of `curate build` and `curate push` (defaults < curate.toml < CURATE_* < CLI)."""

from __future__ import annotations

from dataclasses import dataclass, field

from schemas import DEFAULT_MAX_UNIT_LINES
from schemas.config import ConfigError

FORMATS = ("raw", "alpaca", "messages", "preference")


@dataclass(slots=True)
class BuildConfig:
    """`[build]` in curate.toml."""

    validation_ratio: float = 0.1  # share of operators (not rows) that go to the validation split
    split_salt: str = "ascend-cot"  # change it to draw a different, still deterministic, split
    include_rejected: bool = False  # also keep rejected annotations (published as the `rejected` config)
    max_unit_lines: int = DEFAULT_MAX_UNIT_LINES  # longer units are not published (counted), 0 = no bound

    def __post_init__(self) -> None:
        """Validated once, at construction."""
        if not 0.0 <= self.validation_ratio < 1.0:
            raise ConfigError(
                "validation_ratio", f"validation_ratio must be in [0, 1), got {self.validation_ratio}"
            )
        if self.max_unit_lines < 0:
            raise ConfigError("max_unit_lines", f"max_unit_lines must be >= 0, got {self.max_unit_lines}")


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

    def __post_init__(self) -> None:
        """Validated once, at construction."""
        unknown = [f for f in self.formats if f not in FORMATS]
        if unknown or not self.formats:
            raise ConfigError(
                "formats",
                f"unknown format(s) {', '.join(unknown) or '(none given)'}: choose from {', '.join(FORMATS)}",
            )
        if self.repo_id and self.repo_id.count("/") != 1:
            raise ConfigError("repo_id", f"repo_id must be ORG/NAME, got {self.repo_id!r}")
        if self.shard_rows < 1:
            raise ConfigError("shard_rows", f"shard_rows must be >= 1, got {self.shard_rows}")
