"""The typed configuration of the ingest stage."""

from __future__ import annotations

from dataclasses import dataclass, field

from schemas.config import ConfigError, option

# Files that can hold a kernel entry or a header it includes.
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".cce", ".asc", ".h", ".hpp", ".hh", ".hxx", ".inc")
ENTRY_SUFFIXES = (".cpp", ".cc", ".cxx", ".cce", ".asc", ".h", ".hpp")


@dataclass(slots=True)
class IngestConfig:
    jobs: int = option(0, "Parser processes (0: one per core).")
    max_file_mb: float = option(2.0, "Skip files larger than this many MB (generated code, data dumps).")
    max_diagnostics: int = 20  # per unit; the count of the rest is kept in a final note
    exclude_dirs: list[str] = field(default_factory=lambda: [".git", "build", "output", "node_modules"])
    std: str = "c++17"
    file_timeout_s: float = 120.0  # wall time to parse one entry file; over it, the file is skipped
    worker_memory_mb: int = 4096  # address-space limit of each parser worker (RLIMIT_AS); 0 = none
    max_units_per_file: int = 500  # an entry file with more kernel units is skipped (generated code)

    def __post_init__(self) -> None:
        """Validated once, at construction."""
        if self.jobs < 0:
            raise ConfigError("jobs", f"jobs must be >= 0 (0: one per core), got {self.jobs}")
        if self.max_file_mb <= 0:
            raise ConfigError("max_file_mb", f"max_file_mb must be > 0, got {self.max_file_mb}")
        if self.file_timeout_s <= 0:
            raise ConfigError("file_timeout_s", f"file_timeout_s must be > 0, got {self.file_timeout_s}")
        if self.worker_memory_mb < 0 or self.max_units_per_file < 0:
            raise ConfigError("worker_memory_mb", "worker_memory_mb and max_units_per_file must be >= 0")
        if self.max_diagnostics < 0:
            raise ConfigError("max_diagnostics", f"max_diagnostics must be >= 0, got {self.max_diagnostics}")
