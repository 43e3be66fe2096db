"""The typed configuration of verification (`[verify]` in curate.toml, CURATE_* env, CLI)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from annotate.verify.surface import AUTO_SOC


@dataclass
class VerifyConfig:
    # selects preprocessor branches and the vendor compiler's --cce-aicore-arch; `auto`: Ascend950
    # for arch35 kernels (`*_apt.cpp`, `arch35/` sources), else Ascend910B
    soc: str = AUTO_SOC
    cann_home: str = ""  # "" = $ASCEND_HOME_PATH; the vendor compiler is used only when found
    cann: bool = True  # use the vendor compiler when a toolkit is found
    max_overlap: float = 0.5  # share of the answer's code the reasoning may repeat verbatim
    min_section_chars: int = 20  # a required section shorter than this counts as missing
    snippets: bool = True  # type-check code blocks quoted in the reasoning
    compile_timeout_s: float = 120.0

    @classmethod
    def from_any(cls, config: Any) -> VerifyConfig:
        """A VerifyConfig from itself, from another stage's config (fields it happens to share,
        e.g. `max_rounds` is ignored, `soc` is taken), or from None (defaults)."""
        if isinstance(config, cls):
            return config
        values = {}
        for f in dataclasses.fields(cls):
            if config is not None and hasattr(config, f.name):
                values[f.name] = getattr(config, f.name)
        return cls(**values)
