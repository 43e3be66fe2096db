"""The seam between the annotation loop and the verifiers.

The annotation loop calls every configured verifier on every parsed teacher response. A response
with any `error` diagnostic is rejected; the loop may send it back to the teacher with the
diagnostics as feedback (up to a bounded number of rounds). Verifiers never call the teacher and
never touch the journal: they only judge.
"""

from __future__ import annotations

from typing import Protocol

from schemas import Diagnostic, KernelUnit


class Verifier(Protocol):
    """A named check over one teacher response for one unit."""

    name: str

    def verify(self, unit: KernelUnit, instruction: str, reasoning: str) -> list[Diagnostic]:
        """Return the findings; severity "error" rejects the response."""
        ...


def is_accepted(diagnostics: list[Diagnostic]) -> bool:
    return not any(d.severity == "error" for d in diagnostics)


def feedback_text(diagnostics: list[Diagnostic]) -> str:
    """The diagnostics as the teacher will read them in a retry round."""
    lines = [f"- [{d.check}] {d.message}" for d in diagnostics if d.severity == "error"]
    return "Your previous answer was rejected by the verifier:\n" + "\n".join(lines)
