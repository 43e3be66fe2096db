"""The typed configuration of verification (`[verify]` in curate.toml, CURATE_* env, CLI)."""

from __future__ import annotations

from dataclasses import dataclass

from schemas.ascendc.soc import AUTO_SOC, soc_profile
from schemas.config import ConfigError, option


@dataclass
class VerifyConfig:
    # selects preprocessor branches and the vendor compiler's --cce-aicore-arch
    soc: str = option(
        AUTO_SOC,
        "Target SoC: Ascend910B, Ascend950, ... (default auto: Ascend950 for arch35 kernels, else Ascend910B).",
    )
    cann_home: str = option("", "CANN toolkit root (default: $ASCEND_HOME_PATH).")
    cann: bool = option(True, "Use the vendor compiler when a CANN toolkit is found.")
    max_overlap: float = 0.5  # share of the answer's code the reasoning may repeat verbatim
    min_section_chars: int = 20  # a required section shorter than this counts as missing
    max_reasoning_chars: int = 60_000  # a longer answer is rejected unread (filler, runaway output)
    min_specific_facts: int = 3  # facts of this kernel (not common to every kernel) an answer names
    snippets: bool = True  # type-check code blocks quoted in the reasoning
    compile_timeout_s: float = 120.0

    def __post_init__(self) -> None:
        """Validated once, at construction."""
        try:
            soc_profile(self.soc)
        except ValueError as exc:
            raise ConfigError("soc", str(exc)) from None
        if not 0.0 <= self.max_overlap <= 1.0:
            raise ConfigError("max_overlap", f"max_overlap must be between 0 and 1, got {self.max_overlap}")
        if self.min_section_chars < 0:
            raise ConfigError(
                "min_section_chars", f"min_section_chars must be >= 0, got {self.min_section_chars}"
            )
        if self.max_reasoning_chars < 1_000:
            raise ConfigError(
                "max_reasoning_chars", f"max_reasoning_chars must be >= 1000, got {self.max_reasoning_chars}"
            )
        if self.min_specific_facts < 0:
            raise ConfigError(
                "min_specific_facts", f"min_specific_facts must be >= 0, got {self.min_specific_facts}"
            )
        if self.compile_timeout_s <= 0:
            raise ConfigError(
                "compile_timeout_s", f"compile_timeout_s must be > 0, got {self.compile_timeout_s}"
            )
