"""The reasoning verifiers: they judge a teacher's reasoning about one kernel unit, behind the
`schemas.verdicts.Verifier` protocol that the annotation loop calls.

- `verifiers`: `SurfaceVerifier` (quoted code against the kernel checker), `GroundingVerifier`
  (claims against the unit's parsed facts), `CannVerifier` (the vendor compiler), and
  `default_verifiers(config)`;
- `grounding`: the individual grounding checks;
- `rerun`: re-judging stored annotations without the teacher (`curate verify`);
- `verify_config`: `VerifyConfig`, the `[verify]` settings (the teacher's are `annotate.config`);
- `knowledge_checks`: the checks of a knowledge answer against its documentation chunk (used by
  the knowledge Q&A task, `annotate.tasks.knowledge_qa`).
"""

import importlib
from typing import TYPE_CHECKING, Any

from annotate.reasoning.verify_config import VerifyConfig

if TYPE_CHECKING:
    from annotate.reasoning.verifiers import (
        CannVerifier,
        GroundingVerifier,
        SurfaceVerifier,
        default_verifiers,
        verifier_names,
    )

_VERIFIERS = ("CannVerifier", "GroundingVerifier", "SurfaceVerifier", "default_verifiers", "verifier_names")


def __getattr__(name: str) -> Any:
    """The verifiers (libclang, the kernel checker) are imported when first used: the commands
    import VerifyConfig for their options, and `curate verify --help` need not load a checker."""
    if name in _VERIFIERS:
        return getattr(importlib.import_module("annotate.reasoning.verifiers"), name)
    raise AttributeError(f"module 'annotate.reasoning' has no attribute {name!r}")


__all__ = [
    "CannVerifier",
    "GroundingVerifier",
    "SurfaceVerifier",
    "VerifyConfig",
    "default_verifiers",
    "verifier_names",
]
