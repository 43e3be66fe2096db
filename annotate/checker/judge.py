"""Turn one translation unit's clang diagnostics and AST findings into the checker's verdicts.

Classification runs in rounds: a name declared on a line that already needed leniency (for
example `constexpr uint32_t UB_BLOCK = Ops::Base::GetUbBlockSize();` with `Ops` from a missing
header) is itself "unknown to the surface", so later errors that only involve it are follow-ons
too. Two or three rounds reach a fixed point on real kernels.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import clang.cindex as ci

from annotate.checker.astcheck import AstChecker, norm, unit_cursors
from annotate.checker.blocks import device_markers, headers_at, in_host_function
from annotate.checker.classify import Context, Verdict, classify_diagnostic
from annotate.checker.evidence import Note
from annotate.checker.qualified import (
    misspelt_qualified_names,
    misspelt_unqualified_calls,
    wrong_qualified_arity,
    wrong_unqualified_arity,
)
from schemas import Diagnostic
from schemas.ascendc import VIRTUAL_ROOT, is_surface_file
from schemas.ascendc import cursors as cu
from schemas.ascendc.catalog import Catalog

NOT_FOUND_RE = re.compile(r"^'(?P<name>[^']+)' file not found")
_TAINTING_KINDS = (
    ci.CursorKind.VAR_DECL,
    ci.CursorKind.FIELD_DECL,
    ci.CursorKind.TYPE_ALIAS_DECL,
    ci.CursorKind.TYPEDEF_DECL,
    ci.CursorKind.TYPE_ALIAS_TEMPLATE_DECL,
)
MAX_ROUNDS = 3
# Warnings that mean "a name here is unknown": clang's recovery after them misparses what follows.
CASCADE_CHECKS = ("surface.unknown", "surface.cascade", "surface.shadowed")


@dataclass(slots=True)
class RawError:
    file: str
    line: int
    message: str
    in_context: bool
    notes: list[Note] = field(default_factory=list)
    verdict: Verdict | None = None


def _line_text(path: str, line: int, sources: dict[str, str]) -> str:
    lines = sources.get(path, "").splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _raw_errors(tu: ci.TranslationUnit, sources: dict[str, str]) -> tuple[list[RawError], list[RawError]]:
    """(errors in the unit or synthesised context, errors inside the surface itself)."""
    unit: list[RawError] = []
    surface: list[RawError] = []
    for diag in tu.diagnostics:
        if diag.severity < ci.Diagnostic.Error or NOT_FOUND_RE.match(diag.spelling):
            continue
        file = norm(diag.location.file.name) if diag.location.file else ""
        in_context = file.startswith(VIRTUAL_ROOT) and file not in sources
        notes = [_note(n, sources) for n in diag.children]
        raw = RawError(file, diag.location.line, diag.spelling, in_context, notes)
        (surface if is_surface_file(file) and not in_context else unit).append(raw)
    return unit, surface


def _note(diag: ci.Diagnostic, sources: dict[str, str]) -> Note:
    file = diag.location.file.name if diag.location.file else ""
    in_surface = bool(file) and is_surface_file(file)
    approximate = in_surface and approximated_at(file, diag.location.line)
    return Note(diag.spelling, in_surface, approximate, _line_text(norm(file), diag.location.line, sources))


# The surface marks its approximations by open parameter packs named Curate... (`typename...
# CurateRest`): such a declaration accepts more than the interface does, and says nothing about it.
_OPEN_PACK_RE = re.compile(r"\.\.\.\s*Curate\w*|Curate\w*\s*\.\.\.|\.\.\.\s*Curate")
_MACRO_CALL_RE = re.compile(r"^\s*(CURATE_\w+)\s*\(")


@cache
def _surface_text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8", errors="replace")


def approximated_at(path: str, line: int) -> bool:
    """Whether the surface declaration at this line (or the surface macro expanded there) is an
    approximation (surface files do not change during a run)."""
    lines = _surface_text(path).splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    if _OPEN_PACK_RE.search(text):
        return True
    call = _MACRO_CALL_RE.match(text)
    if call is None:
        return False
    definition = re.search(
        rf"^[ \t]*#[ \t]*define[ \t]+{call.group(1)}\b(?:.*\\\n)*.*$", _surface_text(path), re.MULTILINE
    )
    return definition is not None and bool(_OPEN_PACK_RE.search(definition.group(0)))


_DECLARED_ON_LINE = re.compile(r"\busing\s+(\w+)\s*=|\b(\w+)\s*(?:\[[^\]]*\])?\s*=(?!=)")
# A parameter of a function header: a type (ending in a name, `>`, `&` or `*`), then the name, then
# `,` or `)`. A call's arguments never have a type before them (`Add(x, y, n)`).
_NOT_NAMES = frozenset({"const", "return", "volatile", "else", "do"})
_PARAMETER_ON_LINE = re.compile(r"(?:[\w>]\s*[&*]+\s*|[\w>]\s+)(\w+)\s*(?=[,)])")


_FUNCTION_MACRO_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\((?:.*\\\n)*.*$", re.MULTILINE)


def _function_macros(sources: dict[str, str]) -> dict[str, str]:
    """The unit's function-like macros: name -> definition (continuation lines included)."""
    return {m.group(1): m.group(0) for text in sources.values() for m in _FUNCTION_MACRO_RE.finditer(text)}


def _tainted_names(
    tu: ci.TranslationUnit,
    sources: dict[str, str],
    lenient_lines: set[tuple[str, int]],
    macros: dict[str, str],
) -> set[str]:
    """Names declared on lines that needed leniency: from the AST when clang kept the declaration,
    from the text (`using X = ...`, `... X = ...`, a header's parameters) when the parse error
    dropped it (an unknown parameter type makes clang read the header as an expression)."""
    names: set[str] = set()
    for file, line in lenient_lines:
        text = _line_text(file, line, sources)
        # a macro invoked on the line declares what its body declares (`using aType = ...`)
        for used in set(re.findall(r"\b([A-Z_][A-Z0-9_]*)\s*\(", text)) & macros.keys():
            names.update(m.group(1) for m in re.finditer(r"\busing\s+(\w+)\s*=", macros[used]))
        match = _DECLARED_ON_LINE.search(text)
        if match:
            names.add(match.group(1) or match.group(2))
        names.update(m.group(1) for m in _PARAMETER_ON_LINE.finditer(text) if m.group(1) not in _NOT_NAMES)
    for cursor in unit_cursors(tu.cursor, set(sources)):
        on_lenient_line = (norm(cu.file_of(cursor)), cursor.location.line) in lenient_lines
        if cursor.kind in _TAINTING_KINDS and cursor.spelling and on_lenient_line:
            names.add(cursor.spelling)
    return names


def classify_errors(
    tu: ci.TranslationUnit,
    errors: list[RawError],
    sources: dict[str, str],
    ctx: Context,
    failed_calls: dict[tuple[str, int], list[tuple[str, list[str]]]],
) -> None:
    """Fill in each error's verdict, propagating leniency to names declared on lenient lines."""
    markers = device_markers(sources)
    macros = _function_macros(sources)  # read once: every round looks the same macros up
    for _ in range(MAX_ROUNDS):
        for err in errors:
            if err.verdict is not None and err.verdict.severity == "warning":
                continue
            ctx.tu_has_cascade = any(
                e.verdict is not None and e.verdict.check in CASCADE_CHECKS for e in errors
            )
            ctx.in_host = err.file in sources and in_host_function(sources[err.file], err.line, markers)
            err.verdict = classify_diagnostic(
                err.message,
                _line_text(err.file, err.line, sources),
                err.in_context,
                ctx,
                headers=headers_at(sources[err.file], err.line)
                if err.file in sources and ctx.context_incomplete
                else (),
                failed_calls=failed_calls.get((err.file, err.line), []),
                notes=err.notes,
            )
        ctx.in_host = False
        lenient_lines = {
            (e.file, e.line) for e in errors if e.verdict and e.verdict.check.startswith("surface.")
        }
        tainted = _tainted_names(tu, sources, lenient_lines, macros)
        if tainted <= ctx.lenient_names and tainted <= ctx.tainted:
            return
        ctx.lenient_names |= tainted
        ctx.tainted |= tainted


def judge(
    tu: ci.TranslationUnit,
    sources: dict[str, str],
    ctx: Context,
    catalog: Catalog,
    failed_calls: dict[tuple[str, int], list[tuple[str, list[str]]]],
    display: Callable[[str], str],
) -> list[Diagnostic]:
    errors, surface_errors = _raw_errors(tu, sources)
    live = live_sources(tu, sources)
    ctx.skipped_declared = skipped_declarations(sources, live)
    classify_errors(tu, errors, sources, ctx, failed_calls)
    diagnostics = [
        Diagnostic(
            "surface.internal", "warning", f"inside the surface: {e.message}", Path(e.file).name, e.line
        )
        for e in surface_errors
    ]
    error_lines: set[tuple[str, int]] = set()
    for e in errors:
        assert e.verdict is not None
        diagnostics.append(
            Diagnostic(e.verdict.check, e.verdict.severity, e.verdict.message, display(e.file), e.line)
        )
        if e.verdict.severity == "error":
            error_lines.add((e.file, e.line))
    markers = device_markers(sources)
    try:

        def host_line(file: str, line: int) -> bool:
            return file in sources and in_host_function(sources[file], line, markers)

        findings = AstChecker(catalog, ctx, host_line).run(tu, set(sources))
    except ValueError as exc:  # a libclang construct the Python bindings cannot describe
        findings = []
        diagnostics.append(
            Diagnostic("checker.internal", "warning", f"AST checks skipped: {exc}", display(""), 0)
        )
    for finding in findings:
        if (norm(finding.path), finding.line) not in error_lines:
            v = finding.verdict
            diagnostics.append(
                Diagnostic(v.check, v.severity, v.message, display(finding.path), finding.line)
            )
            error_lines.add((norm(finding.path), finding.line))
    textual = misspelt_qualified_names(live, catalog, ctx.declared | ctx.unit_declared)
    if ctx.known:
        textual += misspelt_unqualified_calls(live, catalog, ctx.known | ctx.unit_declared)
    textual += [
        found
        for found in wrong_unqualified_arity(live, catalog, ctx.unit_declared, ctx.unresolved_own_texts)
        if not in_host_function(sources[found.file], found.line, markers)  # host code calls its own
    ]
    for found in textual + wrong_qualified_arity(live, catalog):
        if (found.file, found.line) not in error_lines:
            error_lines.add((found.file, found.line))
            v = found.verdict
            diagnostics.append(Diagnostic(v.check, v.severity, v.message, display(found.file), found.line))
    return sorted(downgrade_same_line(dedupe(diagnostics)), key=lambda d: (d.path, d.line))


def live_sources(tu: ci.TranslationUnit, sources: dict[str, str]) -> dict[str, str]:
    """The unit's texts with the lines the preprocessor skipped blanked: the textual checks read
    only what the compiler reads (a typo in another SoC's `#if` branch is not this build's)."""
    live: dict[str, str] = {}
    for file, text in sources.items():
        dead = cu.skipped_lines(tu, file)
        if not dead:
            live[file] = text
            continue
        lines = text.split("\n")
        live[file] = "\n".join("" if i + 1 in dead else line for i, line in enumerate(lines))
    return live


_DECLARATION_RES = (
    re.compile(r"^\s*#\s*define\s+(\w+)"),
    re.compile(r"^\s*using\s+(\w+)\s*="),
    re.compile(r"^\s*typedef\b[^;]*?\b(\w+)\s*;"),
    re.compile(r"^\s*(?:static\s+)?(?:constexpr|const)\s+[\w:<>,\s*&]+?\b(\w+)\s*(?:=|\{|\[)"),
)
# A declaration is read in a line's first characters only: the type's `[\w:<>,\s*&]+?` and the
# name's `\w+` split a long run every way (a hostile line of 20 KB took 24 s; found by helper redos).
_DECLARATION_CHARS = 512


def skipped_declarations(sources: dict[str, str], live: dict[str, str]) -> set[str]:
    """Names declared (macros, aliases, typedefs, constants) only on lines the preprocessor
    skipped: sample builds pick one of several `#if SCENARIO_NUM == n` branches with -D."""
    skipped: set[str] = set()
    kept: set[str] = set()
    for file, text in sources.items():
        if live.get(file, text) == text:
            continue
        for line, live_line in zip(text.split("\n"), live[file].split("\n"), strict=False):
            for pattern in _DECLARATION_RES:
                if match := pattern.match(line[:_DECLARATION_CHARS]):
                    (kept if live_line else skipped).add(match.group(1))
    return skipped - kept


def downgrade_same_line(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """A generic clang error on a line already explained as "the surface cannot know" is a
    follow-on of that cause (e.g. `void` returned by a call that could not be resolved)."""
    explained = {(d.path, d.line) for d in diagnostics if d.check.startswith("surface.")}
    out = []
    for d in diagnostics:
        if d.severity == "error" and d.check == "clang" and (d.path, d.line) in explained:
            d = Diagnostic(
                "surface.cascade",
                "warning",
                f"follows from the line's other finding: {d.message}",
                d.path,
                d.line,
            )
        elif (
            d.severity == "error"
            and d.check == "clang"
            and d.message.startswith("expected ")
            and (d.path, d.line - 1) in explained
        ):
            # a declaration the surface could not read (`void f(std::vector<T>& x)` without
            # <vector> parses as a variable) leaves the next line's `{` unexpected
            d = Diagnostic(
                "surface.cascade",
                "warning",
                f"follows from the previous line's finding: {d.message}",
                d.path,
                d.line,
            )
        out.append(d)
    return out


def dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, int, str, str]] = set()
    unique: list[Diagnostic] = []
    for d in diagnostics:
        key = (d.path, d.line, d.severity, d.message)
        if key not in seen:
            seen.add(key)
            unique.append(d)
    return unique
