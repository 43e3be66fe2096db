"""The typed configuration of the dedup stage (`[dedup]` in curate.toml)."""

from __future__ import annotations

from dataclasses import dataclass

from schemas.config import ConfigError, option

SCHEMES = ("affine32", "legacy")
# Training rows (or files) read, and sent to a worker, at a time: bounds dedup's and audit's memory.
SHARD_ROWS = 4096


@dataclass(slots=True)
class DedupConfig:
    threshold: float = option(0.7, "Jaccard threshold for near duplicates and leaks.")
    containment: float = option(0.8, "Share of a benchmark kernel's shingles found in a unit.")
    num_perm: int = option(128, "MinHash permutations.")
    ngram: int = option(5, "Tokens per shingle.")
    abstract_identifiers: bool = option(
        False,
        "Catch copies with renamed identifiers (identifiers become one placeholder; AscendC names kept).",
        flag="--abstract-identifiers/--keep-identifiers",
    )
    drop_name_matches: bool = option(
        False,
        "Also remove units whose op name equals a benchmark task name.",
        flag="--drop-name-matches/--keep-name-matches",
    )
    seed: int = 1  # datasketch's default MinHash seed
    # datasketch >= 2.0 defaults to "affine32"; "legacy" reproduces sketches of datasketch < 2.0.
    scheme: str = "affine32"
    # Containment is not judged for benchmark kernels with fewer shingles than this: a tiny
    # answer (a few statements) is "contained" in almost any file.
    min_containment_shingles: int = 20
    full_evidence: bool = option(
        False,
        "Quote every shared line of every pair in leakage.json (default: line ranges and 3 lines).",
        flag="--full-evidence/--bounded-evidence",
    )
    # Training units that solve a benchmark task (dedup.tasks) are flagged in the report, or
    # dropped (marked leak) with "drop".
    task_leaks: str = option(
        "flag",
        "Units that solve a benchmark task with other code (task-level matches): flag (report them) "
        "or drop (mark them leak).",
    )
    # The judge of task-level matches (`dedup.tasks`, curate/judge.py); its verdicts are journaled
    # in reports/judge.sqlite. The key, if the endpoint needs one, is read from OPENAI_API_KEY.
    judge_url: str = option(
        "",
        "OpenAI-compatible endpoint asked 'does this kernel implement this reference?' about each "
        "task-level match and candidate (cached per pair; offline without it).",
    )
    judge_model: str = option("judge", "Model name sent to --judge-url.")
    judge_concurrency: int = option(
        4, "Documents judged at once by --judge-url (1 for a server that answers one request at a time)."
    )

    def __post_init__(self) -> None:
        """Validated once, at construction."""
        for name in ("threshold", "containment"):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ConfigError(name, f"{name} must be in (0, 1], got {value}; e.g. --{name} 0.7")
        if not 1 <= self.num_perm <= 1024:
            raise ConfigError("num_perm", f"num_perm must be between 1 and 1024, got {self.num_perm}")
        if not 1 <= self.ngram <= 32:
            raise ConfigError("ngram", f"ngram must be between 1 and 32, got {self.ngram}")
        if not 1 <= self.judge_concurrency <= 64:
            raise ConfigError(
                "judge_concurrency",
                f"judge_concurrency must be between 1 and 64, got {self.judge_concurrency}",
            )
        if self.task_leaks not in ("flag", "drop"):
            raise ConfigError("task_leaks", f"task_leaks must be flag or drop, got {self.task_leaks!r}")
        if self.scheme not in SCHEMES:
            raise ConfigError("scheme", f"scheme must be one of {', '.join(SCHEMES)}, got {self.scheme!r}")
        if self.min_containment_shingles < 1:
            raise ConfigError(
                "min_containment_shingles",
                f"min_containment_shingles must be >= 1, got {self.min_containment_shingles}",
            )
