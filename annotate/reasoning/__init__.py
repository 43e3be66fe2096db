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

from annotate.reasoning.verifiers import (
    CannVerifier,
    GroundingVerifier,
    SurfaceVerifier,
    default_verifiers,
    verifier_names,
)
from annotate.reasoning.verify_config import VerifyConfig

__all__ = [
    "CannVerifier",
    "GroundingVerifier",
    "SurfaceVerifier",
    "VerifyConfig",
    "default_verifiers",
    "verifier_names",
]
