"""Typed configuration of `curate build` and `curate push` (defaults < curate.toml < CURATE_* < CLI)."""

from __future__ import annotations

from dataclasses import dataclass

from schemas import DEFAULT_MAX_UNIT_LINES
from schemas.config import MAX_UNIT_LINES_HELP, ConfigError, option

FORMATS = ("raw", "alpaca", "messages", "preference")


@dataclass(slots=True)
class BuildConfig:
    """`[build]` in curate.toml."""

    validation_ratio: float = option(0.1, "Share of operators (not rows) in the validation split.")
    split_salt: str = option(
        "ascend-cot", "Salt of the operator hash that splits (change it for another split)."
    )
    include_rejected: bool = option(
        False,
        "Also keep rejected annotations (published as their own config).",
        flag="--include-rejected/--accepted-only",
    )
    max_unit_lines: int = option(DEFAULT_MAX_UNIT_LINES, MAX_UNIT_LINES_HELP)

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

    repo_id: str = option("", "Hub dataset repository ORG/NAME.")
    to_dir: str = option("", "Write the repository content into this folder.")
    private: bool = option(False, "Visibility of a new Hub repository.", flag="--private/--public")
    revision: str = option("main", "Branch to commit to.")
    commit_message: str = option("", "Message of the Hub commit.")
    allow_license: list[str] = option(
        help="Licence allowed for publication: SPDX id or name (repeat, or comma-separate).", factory=list
    )
    formats: list[str] = option(
        help=f"{', '.join(FORMATS)} (repeat; default all).", flag="--format", factory=lambda: list(FORMATS)
    )
    pretty_name: str = option("Ascend-CoT", "Name shown on the dataset card.")
    shard_rows: int = option(2000, "Rows per parquet shard.")
    ignore_finding: list[str] = option(
        help="Id of a secret-gate finding judged a false positive (repeat).", factory=list
    )

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
