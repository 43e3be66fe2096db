"""Which verifiers the annotation loop runs.

The toolchain verifiers live in `annotate.verify` (API surface, grounding, CANN compiler) and are
used when that package is present; otherwise the loop runs the structural verifier alone, so the
feedback loop is always exercised. The second value says which set was chosen (for the summary).
"""

from __future__ import annotations

import importlib
from typing import Any

from annotate.seam import Verifier
from annotate.structural import StructuralVerifier


def load_verifiers(config: Any) -> tuple[list[Verifier], str]:
    try:
        module = importlib.import_module("annotate.verify")
    except ModuleNotFoundError as exc:
        if exc.name not in ("annotate.verify", "annotate"):
            raise  # annotate.verify exists but is broken: say so rather than silently verify less
        return [StructuralVerifier()], "structure"
    factory = getattr(module, "default_verifiers", None)
    if factory is None:
        return [StructuralVerifier()], "structure"
    verifiers = list(factory(config))
    names = ", ".join(getattr(v, "name", type(v).__name__) for v in verifiers)
    return verifiers, names or "none"
