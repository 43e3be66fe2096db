"""The contract between the annotation loop and any verifier: the `Verifier` protocol, what
makes a verdict, and the sections a reasoning is written in.

The annotation loop calls every configured verifier on every parsed teacher response. A response
with any `error` diagnostic is rejected; the loop may send it back to the teacher with the
diagnostics as feedback (up to a bounded number of rounds). Verifiers never call the teacher and
never touch the journal: they only judge.
"""

from __future__ import annotations

from collections.abc import Sequence
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


# The sections every reasoning is written in.
# The teacher answers with one value per key; the loop renders them, in this order, as
# "## <heading>" blocks of the reasoning text that verifiers receive.
REASONING_SECTIONS: tuple[tuple[str, str], ...] = (
    ("analysis", "Operator analysis"),
    ("core_split", "Work split across AI cores"),
    ("tiling", "Tiling under the Unified Buffer"),
    ("pipeline", "CopyIn/Compute/CopyOut pipeline"),
    ("api_choices", "AscendC API choices"),
    ("tail_and_dtype", "Tail and dtype handling"),
    ("host_tiling", "Host-side tiling"),
)


def reasoning_sections(reasoning: str) -> dict[str, str]:
    """Split a reasoning text back into {section key: body} (sections it does not have are absent)."""
    by_heading = {heading.lower(): key for key, heading in REASONING_SECTIONS}
    found: dict[str, str] = {}
    key: str | None = None
    lines: list[str] = []
    for line in [*reasoning.splitlines(), "## <end>"]:
        if line.startswith("## "):
            if key is not None:
                found[key] = "\n".join(lines).strip()
            key, lines = by_heading.get(line[3:].strip().lower()), []
        elif key is not None:
            lines.append(line)
    return found


def run_verifiers(
    verifiers: Sequence[Verifier], unit: KernelUnit, instruction: str, reasoning: str
) -> list[Diagnostic]:
    """Every verifier's findings on one reasoning; a verifier that crashes rejects it (a broken
    verifier must not pass an answer, nor stop the run)."""
    found: list[Diagnostic] = []
    for verifier in verifiers:
        try:
            found.extend(verifier.verify(unit, instruction, reasoning))
        except Exception as exc:
            name = getattr(verifier, "name", type(verifier).__name__)
            found.append(Diagnostic(f"{name}.internal_error", "error", f"verifier failed: {exc!r}"[:300]))
    return found
