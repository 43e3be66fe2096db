"""The verifiers the annotation loop runs, behind the `schemas.verdicts.Verifier` protocol.

- `SurfaceVerifier` ("surface"): code blocks quoted in the reasoning type-check against the
  project's AscendC API surface with libclang (always available).
- `GroundingVerifier` ("grounding"): the reasoning agrees with the kernel's parsed facts.
- `CannVerifier` ("cann"): complete kernels quoted in the reasoning compile with the vendor
  compiler (only when a CANN toolkit is found).

`default_verifiers(config)` builds the list for a run.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from annotate.checker.astcheck import FRAGMENT_TEMPLATE
from annotate.checker.cann import CompileRequest, Toolkit, compile_check, detect
from annotate.checker.clangcheck import CheckOptions, CheckResult, KernelChecker
from annotate.reasoning.grounding import code_blocks, grounding_checks, size_check
from annotate.reasoning.verify_config import VerifyConfig
from schemas import Diagnostic, KernelUnit
from schemas.ascendc.catalog import Catalog, load_catalog
from schemas.verdicts import Verifier

# A block that is declarations, not statements: a quoted type, entry, or device function (a
# method quoted on its own, `__aicore__ inline void Compute(int32_t i) { ... }`).
# Leading blanks are read within a line (a later line's own start is tried anyway), and a run up to
# `__aicore__` at most 2,000 characters: `^\s*` and `[^;(]*` had scanned from every line start of a
# run of blank lines to its end (8 s for 20 KB; found by helper redos).
_TOP_LEVEL_RE = re.compile(
    r"^[^\S\n]*(?:template\s*<|class\s|struct\s|extern\s|namespace\s|#|using\s|.*__global__|[^;(]{0,2000}__aicore__)",
    re.MULTILINE,
)
_UNDECLARED_RE = re.compile(r"^'(\w+)' is not declared here")
# Artefacts of checking a fragment inside a template (its unknown variables have a dependent
# type): the kernel itself would not need these keywords.
_FRAGMENT_ARTEFACT_RE = re.compile(
    r"^use 'template' keyword to treat '\w+' as a dependent template name|^missing 'typename' prior to|"
    r"^invalid use of 'this' outside of a non-static member function"  # a method quoted without its class
)
# The fragment's unknown names are declared as variables; one of them may really be a type (a
# template parameter the fragment does not show), so "must be a type" is then no evidence.
_UNKNOWN_AS_VALUE_RE = re.compile(r"^template argument for template type parameter must be a type")
_SNIPPET_PREFIX = '#include "kernel_operator.h"\nusing namespace AscendC;\n'
# Statements are checked inside a function template whose unknown variables (the kernel's members
# and locals the fragment does not show) get the template's type: calls on them become dependent,
# so the API name and argument count are still checked, their types are not guessed.
_FRAGMENT_HEAD = (
    _SNIPPET_PREFIX + f"template <typename CurateT>\n__aicore__ inline void {FRAGMENT_TEMPLATE}()\n{{\n"
)


def snippet_source(block: str, unknown: tuple[str, ...] = ()) -> tuple[str, int]:
    """A block as a checkable translation unit, and how many lines were put before it."""
    if _TOP_LEVEL_RE.search(block):
        return _SNIPPET_PREFIX + block, _SNIPPET_PREFIX.count("\n")
    declarations = f"CurateT {', '.join(unknown)};" if unknown else "// no unknown names"
    head = _FRAGMENT_HEAD + declarations + "\n"
    return head + block + "\n}\n", head.count("\n")


# The cause inside a classified message: "follows from ...: <cause>", "<cause> (not counted: ...)".
_WRAPPED_CAUSE_RE = re.compile(
    r"^(?:follows from [^:]*|involves [^:]*|in the synthesised operator context|"
    r"parser recovery after an earlier unknown name|inside a block that uses [^:]*): (?P<cause>.*)$"
)
_NOT_COUNTED_RE = re.compile(r"^(?P<cause>.*) \(not counted: [^()]*\)$")
_KERNEL_CACHE_SIZE = 64


def message_keys(message: str) -> set[str]:
    """A diagnostic's message and the clang cause it wraps, to compare findings across sources."""
    keys = {message}
    for pattern in (_WRAPPED_CAUSE_RE, _NOT_COUNTED_RE):
        match = pattern.match(message)
        if match:
            keys.add(match.group("cause"))
    return keys


class SurfaceVerifier:
    """Quoted code must not call AscendC APIs that do not exist, nor with the wrong arguments.

    The real kernel is the baseline: a finding the unit's own kernel (`unit.code`) also produces
    says something about the surface or the kernel, not about the reasoning. It is reported as
    `surface.inherited` (a warning) and never rejects; only findings the quoted code introduces do.
    """

    name = "surface"

    def __init__(self, config: VerifyConfig | None = None, checker: KernelChecker | None = None) -> None:
        self.config = config or VerifyConfig()
        self._checker = checker
        self._kernel_results: dict[str, CheckResult] = {}

    @property
    def checker(self) -> KernelChecker:
        if self._checker is None:
            self._checker = KernelChecker()
        return self._checker

    def check_block(self, block: str, name: str) -> tuple[list[Diagnostic], int]:
        """Errors of one code block (lines relative to the generated source) and the line offset."""
        options = CheckOptions(soc=self.config.soc, snippet=True)
        source, offset = snippet_source(block)
        result = self.checker.check_source(source, name, options)
        unknown = tuple(
            sorted({m.group(1) for d in result.diagnostics if (m := _UNDECLARED_RE.match(d.message))})
        )
        declared_unknown = bool(unknown) and not _TOP_LEVEL_RE.search(block)
        if declared_unknown:
            source, offset = snippet_source(block, unknown)
            result = self.checker.check_source(source, name, options)
        errors = [d for d in result.errors if not _FRAGMENT_ARTEFACT_RE.match(d.message)]
        if declared_unknown:
            errors = [d for d in errors if not _UNKNOWN_AS_VALUE_RE.match(d.message)]
        return errors, offset

    def kernel_result(self, unit: KernelUnit) -> CheckResult:
        """The checker's verdict on the unit's real kernel (kept for the last few units)."""
        key = unit.unit_id or unit.code
        if key not in self._kernel_results:
            if len(self._kernel_results) >= _KERNEL_CACHE_SIZE:
                self._kernel_results.pop(next(iter(self._kernel_results)))
            self._kernel_results[key] = (
                self.checker.check_unit_code(unit.code, unit.path, CheckOptions(soc=self.config.soc))
                if unit.code.strip()
                else CheckResult(Path(unit.path).name or "kernel.cpp", True, [])
            )
        return self._kernel_results[key]

    def kernel_findings(self, unit: KernelUnit) -> set[str]:
        """The message keys of every finding (error or warning) on the unit's real kernel."""
        found: set[str] = set()
        for d in self.kernel_result(unit).diagnostics:
            found |= message_keys(d.message)
        return found

    def verify(self, unit: KernelUnit, instruction: str, reasoning: str) -> list[Diagnostic]:
        del instruction
        if not self.config.snippets or size_check(reasoning, self.config.max_reasoning_chars):
            return []  # an oversized answer is rejected by the grounding verifier, unread
        found: list[Diagnostic] = []
        for index, (first_line, block) in enumerate(code_blocks(reasoning), start=1):
            errors, offset = self.check_block(block, f"snippet{index}.cpp")
            for d in errors:
                line = max(d.line - offset, 1)
                where = f"code block {index}, line {line}"
                if message_keys(d.message) & self.kernel_findings(unit):
                    diag = Diagnostic(
                        "surface.inherited",
                        "warning",
                        f"{where}: the real kernel has the same finding (not the reasoning's): {d.message}",
                        "",
                        first_line + line - 1,
                    )
                else:
                    diag = Diagnostic(
                        "surface.snippet", "error", f"{where}: {d.message}", "", first_line + line - 1
                    )
                found.append(diag)
        return found


class GroundingVerifier:
    """The reasoning's claims (APIs, buffer counts, positions, tiling fields) match the kernel."""

    name = "grounding"

    def __init__(self, config: VerifyConfig | None = None, catalog: Catalog | None = None) -> None:
        self.config = config or VerifyConfig()
        self.checks = grounding_checks(
            catalog or load_catalog(),
            self.config.max_overlap,
            self.config.min_section_chars,
            self.config.min_specific_facts,
        )

    def verify(self, unit: KernelUnit, instruction: str, reasoning: str) -> list[Diagnostic]:
        del instruction
        found = size_check(reasoning, self.config.max_reasoning_chars)
        if found:
            return found
        for check in self.checks.values():
            found.extend(check(unit, reasoning))
        return found


class CannVerifier:
    """Complete kernels quoted in the reasoning compile with the vendor compiler."""

    name = "cann"

    def __init__(self, toolkit: Toolkit, config: VerifyConfig | None = None) -> None:
        self.toolkit = toolkit
        self.config = config or VerifyConfig()

    def verify(self, unit: KernelUnit, instruction: str, reasoning: str) -> list[Diagnostic]:
        del unit, instruction
        found: list[Diagnostic] = []
        if size_check(reasoning, self.config.max_reasoning_chars):
            return found
        for index, (first_line, block) in enumerate(code_blocks(reasoning), start=1):
            if "__global__" not in block:
                continue  # fragments cannot be compiled on their own
            with tempfile.TemporaryDirectory(prefix="curate-cann-") as tmp:
                source = Path(tmp) / f"snippet{index}.cpp"
                source.write_text(block, encoding="utf-8")
                request = CompileRequest(source, soc=self.config.soc)
                for d in compile_check(self.toolkit, request, self.config.compile_timeout_s):
                    if d.severity != "error":
                        continue
                    in_block = d.path == str(source)
                    where = "" if in_block else f" (in {Path(d.path).name}:{d.line})"
                    line = first_line + max(d.line, 1) - 1 if in_block else first_line
                    found.append(
                        Diagnostic(
                            "cann.snippet", "error", f"code block {index}{where}: {d.message}", "", line
                        )
                    )
        return found


def default_verifiers(config: VerifyConfig | None = None) -> list[Verifier]:
    """The verifiers of a run (annotate and verify alike take the [verify] settings)."""
    cfg = config or VerifyConfig()
    catalog = load_catalog()
    verifiers: list[Verifier] = [
        SurfaceVerifier(cfg, KernelChecker(catalog)),
        GroundingVerifier(cfg, catalog),
    ]
    if cfg.cann:
        detection = detect(cfg.cann_home or None)
        if detection.toolkit is not None:
            verifiers.append(CannVerifier(detection.toolkit, cfg))
    return verifiers


def verifier_names(verifiers: list[Verifier]) -> str:
    """The verifiers as the run summary and the dataset card name them."""
    return ", ".join(v.name for v in verifiers) or "none"
