"""A minimal verifier of the reasoning's form: every required section present and not trivially short.

Runs never use it (they run the toolchain verifiers of `annotate.verify`, whose
`grounding.sections` check covers the same ground): it is a measuring instrument, kept with the
benchmarks. bench_annotate.py uses it to time the feedback loop without libclang, and the loop
tests to drive the loop. It judges form only, never whether the content is true.
"""

from __future__ import annotations

from schemas import Diagnostic, KernelUnit
from schemas.verdicts import REASONING_SECTIONS, reasoning_sections


class StructuralVerifier:
    name = "structure"

    def __init__(self, min_chars: int = 20) -> None:
        self.min_chars = min_chars

    def verify(self, unit: KernelUnit, instruction: str, reasoning: str) -> list[Diagnostic]:
        del unit, instruction  # form only
        sections = reasoning_sections(reasoning)
        found: list[Diagnostic] = []
        for key, heading in REASONING_SECTIONS:
            text = sections.get(key, "")
            if not text:
                found.append(
                    Diagnostic(
                        "structure.missing_section", "error", f"the section `{key}` ({heading}) is missing"
                    )
                )
            elif len(text) < self.min_chars:
                found.append(
                    Diagnostic(
                        "structure.short_section",
                        "error",
                        f"the section `{key}` ({heading}) has {len(text)} characters; explain it in full sentences",
                    )
                )
        return found
