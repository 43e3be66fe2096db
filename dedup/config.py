"""The typed configuration of the dedup stage (`[dedup]` in curate.toml)."""

from __future__ import annotations

from dataclasses import dataclass

from schemas.config import ConfigError

SCHEMES = ("affine32", "legacy")


@dataclass(slots=True)
class DedupConfig:
    threshold: float = 0.7  # Jaccard threshold for near duplicates and leaks
    containment: float = 0.8  # share of a benchmark kernel's shingles found in a corpus unit
    num_perm: int = 128
    ngram: int = 5  # token n-gram shingles
    abstract_identifiers: bool = False  # map identifiers to one placeholder (AscendC names kept)
    drop_name_matches: bool = False  # remove units whose op name equals a benchmark task name
    seed: int = 1  # datasketch's default MinHash seed
    # datasketch >= 2.0 defaults to "affine32"; "legacy" reproduces sketches of datasketch < 2.0.
    scheme: str = "affine32"
    # Containment is not judged for benchmark kernels with fewer shingles than this: a tiny
    # answer (a few statements) is "contained" in almost any file.
    min_containment_shingles: int = 20
    # leakage.json quotes every shared line of every pair (default: ranges and a few lines).
    full_evidence: bool = False
    # Training units that solve a benchmark task (dedup.tasks) are flagged in the report, or
    # dropped (marked leak) with "drop".
    task_leaks: str = "flag"

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
        if self.task_leaks not in ("flag", "drop"):
            raise ConfigError("task_leaks", f"task_leaks must be flag or drop, got {self.task_leaks!r}")
        if self.scheme not in SCHEMES:
            raise ConfigError("scheme", f"scheme must be one of {', '.join(SCHEMES)}, got {self.scheme!r}")
        if self.min_containment_shingles < 1:
            raise ConfigError(
                "min_containment_shingles",
                f"min_containment_shingles must be >= 1, got {self.min_containment_shingles}",
            )
