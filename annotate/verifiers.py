"""Which verifiers the annotation loop runs: the toolchain verifiers of `annotate.verify` (API
surface type check, grounding in the parsed facts, the vendor compiler when installed). The
second value names them for the run summary and the dataset card."""

from __future__ import annotations

from annotate.seam import Verifier
from annotate.verify import default_verifiers
from annotate.verify.config import VerifyConfig


def load_verifiers(config: VerifyConfig) -> tuple[list[Verifier], str]:
    verifiers = list(default_verifiers(config))
    names = ", ".join(getattr(v, "name", type(v).__name__) for v in verifiers)
    return verifiers, names or "none"
