"""Deciding which clang findings fail a kernel and which only say "the surface cannot know this".

Errors: unknown names inside namespace AscendC, misspellings of a declared name (clang's "did you
mean", or a name within a small edit distance of an AscendC API), wrong argument counts, type
mismatches, and any undeclared name in a file whose includes all resolved.

Warnings (reported, never failing the file): includes nobody provides (stubbed), names that such
an include would have declared (an unknown, non-AscendC identifier in a file with a missing
include, or in a reasoning snippet without its context), the follow-on errors those names cause
on the same line, and problems inside the synthesised operator context (tiling, build macros).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from annotate.checker.evidence import (
    IDENT_RE,
    Note,
    Verdict,
    evidence_verdict,
    host_device_pair,
    surface_dependency,
)

UNKNOWN_NAME_PATTERNS = (
    re.compile(r"^use of undeclared identifier '(?P<name>[\w:]+)'(?:; did you mean '(?P<hint>[\w:]+)'\?)?"),
    re.compile(r"^unknown type name '(?P<name>[\w:]+)'(?:; did you mean '(?P<hint>[\w:]+)'\?)?"),
    re.compile(
        r"^no (?:template|type|member) named '(?P<name>\w+)' in namespace '(?P<ns>[\w:]+)'"
        r"(?:; did you mean (?:simply )?'(?P<hint>[\w:]+)'\?)?"
    ),
    re.compile(r"^no template named '(?P<name>\w+)'(?:; did you mean '(?P<hint>[\w:]+)'\?)?$"),
    re.compile(r"^use of undeclared '(?P<name>[\w:]+)'"),
    re.compile(r"^unknown template name '(?P<name>\w+)'"),
    re.compile(r"^use of undeclared label '(?P<name>\w+)'"),
    re.compile(
        r"^no member named '(?P<name>\w+)' in the global namespace(?:; did you mean '(?P<hint>[\w:]+)'\?)?"
    ),
)
NO_MEMBER_RE = re.compile(r"^no member named '(?P<name>\w+)' in '(?P<owner>[^']+)'")
NOT_FOUND_RE = re.compile(r"^'(?P<name>[^']+)' file not found")
BUILD_MACRO_RE = re.compile(r"^(?:DTYPE|ORIG_DTYPE|FORMAT)_\w+$")
UNKNOWN_TILING = "CurateUnknownTilingData"


# What `"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|//.*$|\b\d\w*` replaced, read in one pass. That pattern
# tried an unclosed literal from each of its escaped quotes and read on to the same end each time,
# and a `//` from each slash of a run: 100 KB of `"\` took 47 s, of `/`, 35 s.
_LITERAL_START_RE = re.compile(r"[\"']|//|\b\d")
_STRING_RES = {quote: re.compile(rf"{quote}(?:\\.|[^{quote}\\])*+({quote})?") for quote in "\"'"}
_NUMBER_RE = re.compile(r"\d\w*")


def _code_only(line: str) -> str:
    """A source line without string/char literals, comments and numbers (their letters are no names)."""
    out: list[str] = []
    copied = pos = 0
    failed = {'"': -1, "'": -1, "/": -1}  # a start of this kind before there fails as the last one did
    while (start := _LITERAL_START_RE.search(line, pos)) is not None:
        at = start.start()
        end = _literal_end(line, at, failed)
        if end is None:
            pos = at + 1
            continue
        out += [line[copied:at], " "]
        copied = pos = end
    return "".join(out) + line[copied:]


def _literal_end(text: str, at: int, failed: dict[str, int]) -> int | None:
    """Where the literal, comment or number starting at `at` ends; None when none does. A string
    that is not closed stops where its escapes stop; the quotes of its kind up to there are
    escapes of it and fail the same way. A `//` comment runs to the end of the text (or of its
    last line); one on an earlier line fails, as every `//` before that line break does."""
    kind = text[at]
    if kind not in failed:  # a digit where a word starts
        number = _NUMBER_RE.match(text, at)
        return number.end() if number is not None else None
    if at < failed[kind]:
        return None
    if kind == "/":
        line_end = text.find("\n", at)
        if line_end < 0 or line_end == len(text) - 1:
            return len(text) if line_end < 0 else line_end
        failed["/"] = line_end
        return None
    literal = _STRING_RES[kind].match(text, at)
    if literal is not None and literal.group(1):
        return literal.end()
    failed[kind] = literal.end() if literal is not None else at + 1
    return None


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Optimal string alignment distance (adjacent swaps count 1), capped at `limit`."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return min(prev[len(b)], limit)


def typo_like(name: str, other: str) -> bool:
    """One inner edit (swap, doubled or dropped letter) keeps the first and last letters: `DataCopyy`
    and `DtaCopy` look like typos of `DataCopy`; `CastT` or `CompareRes` look like other helpers.
    Two neighbouring letters swapped are a typo wherever they are (`UpdateMaks`, `Adn`)."""
    if len(name) >= 3 and len(name) == len(other) and name != other and name[0] == other[0]:
        diff = [i for i, (a, b) in enumerate(zip(name, other, strict=True)) if a != b]
        if (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and name[diff[0]] == other[diff[1]]
            and name[diff[1]] == other[diff[0]]
        ):
            return True
    return (
        len(name) >= 4
        and name[0] == other[0]
        and name[-1] == other[-1]
        and edit_distance(name, other, 2) <= 1
    )


def closest(name: str, candidates: set[str], strict: bool = False) -> str | None:
    """A candidate `name` is probably a misspelling of (same letters but one or two edits).

    `strict` (used when a missing include may declare the name) only accepts typo-like edits."""
    if len(name) < (3 if strict else 4) or name in candidates:
        return None
    if strict:
        matches = sorted(c for c in candidates if abs(len(c) - len(name)) <= 1 and typo_like(name, c))
        return matches[0] if matches else None
    budget = 1 if len(name) < 8 else 2
    best: tuple[int, str] | None = None
    lowered = name.lower()
    for cand in candidates:
        if abs(len(cand) - len(name)) > budget or (cand[:1].lower() != lowered[:1] and budget == 1):
            continue
        d = 0 if cand.lower() == lowered else edit_distance(name, cand, budget + 1)
        if d <= budget and (best is None or (d, cand) < best):
            best = (d, cand)
    return best[1] if best else None


@dataclass(slots=True)
class Context:
    """What the classifier knows about the translation unit."""

    api_names: set[str]  # catalog functions, classes, methods, macros
    declared: set[str]  # every name declared anywhere in the TU (surface included)
    missing_includes: bool = False  # a header device code may depend on is missing
    unresolved_own_texts: tuple[str, ...] = ()  # repository headers the missing includes may be
    host_missing: bool = False  # only host-side headers are missing (acl/acl.h, <fstream>, ...)
    in_host: bool = False  # set while judging: the error is inside a host function (the surface
    # declares the device interface only: host code's runtime calls are outside what it knows)
    snippet: bool = False  # a fragment of reasoning: missing context is expected
    lenient_names: set[str] = field(default_factory=set)  # unknown names judged "surface cannot know"
    tainted: set[str] = field(default_factory=set)  # names declared on such lines
    known: set[str] = field(default_factory=set)  # declared anywhere incl. locals, macros, keywords
    unit_declared: set[str] = field(default_factory=set)  # declared in the unit's own files
    tu_has_cascade: bool = False  # set while judging: an earlier finding in the TU was lenient
    corrected_to: set[str] = field(default_factory=set)  # clang's typo corrections of lenient names
    class_headers: dict[str, str] = field(default_factory=dict)  # classes the unit defines
    tiling_fields: dict[str, set[str]] = field(default_factory=dict)  # rebuilt tiling structures
    skipped_declared: set[str] = field(default_factory=set)  # declared only on lines #if skipped
    unit_text: str = ""  # the unit's own source text
    surface_names: set[str] = field(default_factory=set)  # every name the surface declares
    records: frozenset[str] = frozenset()  # the surface's classes (AscendC parameter records)
    tensor_apis: frozenset[str] = frozenset()  # functions with an overload taking a tensor
    # every missing include is a vendor-internal or host header (`impl/dav_c220/...`): none of
    # them can declare the repository's own helpers, so a near miss of a catalog API stays an error
    missing_vendor_only: bool = False

    @property
    def context_incomplete(self) -> bool:
        return self.missing_includes or self.snippet or self.in_host


# Headers of the vendor toolkit's own implementation, never of a repository.
VENDOR_HEADER_RE = re.compile(
    r"^(?:impl/|lib/|adv_api/|basic_api/|kernel_tiling/|kfc/|tikcfw/|interface/|dav_|kernel_\w+\.h$|"
    r"micro_api/|reg_compute/|simt_api/|utils/std/)"
)
_HELPER_SUFFIX_RE = re.compile(r"^(?:V?\d+|Impl|Ex|Func|Tmp|Custom|Op|s|T|Res|Local|Helper)$")


def is_vendor_header(name: str) -> bool:
    return bool(VENDOR_HEADER_RE.match(name))


def _strong_near_miss(short: str, ctx: Context) -> str | None:
    """A catalog API this unknown name almost spells (a typo, or the API plus a stray suffix:
    `GetUserWorkspaceZq`), when only vendor-internal headers are missing and the unit declares
    no such name: the stub cannot be where it comes from."""
    if not ctx.missing_vendor_only or ctx.snippet or ctx.in_host or len(short) < 6:
        return None
    if short in ctx.unit_declared or short in ctx.declared or short in ctx.known:
        return None
    typo = closest(short, ctx.api_names, strict=True)
    if typo is not None:
        return typo
    for cand in sorted(ctx.api_names, key=len, reverse=True):
        extra = short[len(cand) :]
        if (
            len(cand) >= 8
            and short.startswith(cand)
            and 1 <= len(extra) <= 3
            and not _HELPER_SUFFIX_RE.match(extra)
        ):
            return cand
    return None


def _near(name: str, other: str) -> bool:
    return typo_like(name, other)


def classify_unknown(name: str, namespace: str, hint: str, ctx: Context) -> Verdict:
    verdict = _classify_unknown(name, namespace, hint, ctx)
    if hint and verdict.severity == "warning":
        # clang went on as if the hint had been written: errors about the hint are follow-ons
        ctx.corrected_to.add(hint.split("::")[-1])
    return verdict


def _classify_unknown(name: str, namespace: str, hint: str, ctx: Context) -> Verdict:
    if not namespace and "::" not in name and name in ctx.skipped_declared:
        # e.g. `#if SCENARIO_NUM == 1 ... using T1 = float;`: the build selects the branch with a
        # -D the checker does not have
        ctx.lenient_names.add(name)
        return Verdict(
            "warning",
            "surface.unknown",
            f"'{name}' is declared only in a preprocessor branch this check skips (a -D of the build?)",
        )
    short = name.split("::")[-1]
    hint_short = hint.split("::")[-1]
    if short in ctx.tainted and not namespace.startswith("AscendC"):
        # declared on a line clang could not read (`std::vector<float>& x` without <vector>)
        return Verdict(
            "warning", "surface.cascade", f"'{name}' is declared on a line that needs the surface's leniency"
        )
    if hint and ctx.context_incomplete and hint_short == short:
        # the AscendC name exists; the `using namespace AscendC` that exposes it unqualified is
        # in a header the surface cannot see
        ctx.lenient_names.add(short)
        return Verdict(
            "warning",
            "surface.unknown",
            f"'{name}' needs `using namespace AscendC`, presumably in a missing include",
        )
    if hint and hint_short == short and not ctx.context_incomplete:
        qualified = f"{namespace}::{short}" if namespace and "::" not in name else name
        elsewhere = hint if "::" in hint else f"::{hint}"
        return Verdict(
            "error", "clang.undeclared", f"'{qualified}' is not declared; '{short}' exists as '{elsewhere}'"
        )
    if (
        ctx.context_incomplete
        and namespace
        and namespace.split("::")[-1] in ctx.unit_declared | ctx.lenient_names
        and not (hint and _near(short, hint_short))  # a unit extending AscendC::Te still misspells
        and not (namespace.startswith("AscendC") and closest(short, ctx.api_names, strict=True))
    ):
        # `Pattern::Dim` where the kernel's own `Pattern` alias failed (its header is missing) and
        # the lookup fell through to AscendC::Pattern: not the AscendC name the author meant.
        ctx.lenient_names.add(short)
        return Verdict(
            "warning",
            "surface.cascade",
            f"'{name}': its qualifier is the kernel's own, whose definition is missing",
        )
    internal = {"Impl", "Detail", "Internal", "impl", "detail", "internal"}
    if (namespace.startswith("AscendC") or name.startswith("AscendC::")) and (
        short in internal or internal & set(namespace.split("::"))
    ):
        ctx.lenient_names.add(short)
        return Verdict(
            "warning",
            "surface.unknown",
            f"'{name}' belongs to the interface's internal namespaces, which the surface does not cover",
        )
    if namespace.startswith("AscendC") or name.startswith("AscendC::"):
        near = closest(short, ctx.api_names) or (hint_short if hint_short in ctx.api_names else None)
        tail = f"; did you mean '{near}'?" if near else ""
        scope = namespace or "AscendC"
        if ctx.in_host and near is None:
            # host code calls the host tiling library (GetXxxMaxMinTmpSize, XxxTilingFunc, ...),
            # which the surface declares only in part: there only a near miss is evidence
            ctx.lenient_names.add(short)
            return Verdict(
                "warning",
                "surface.unknown",
                f"'{short}' (namespace {scope}) is not in the surface's part of the host tiling library",
            )
        return Verdict(
            "error", "ascendc.unknown_api", f"'{short}' is not an AscendC API (namespace {scope}){tail}"
        )
    build = _build_system_name(short)
    if (
        build
        and not (hint and _near(short, hint_short))
        and closest(short, ctx.api_names, strict=True) is None
    ):
        ctx.lenient_names.add(short)
        return Verdict("warning", "surface.unknown", f"'{name}' is not declared here; {build}")
    if hint and (not ctx.context_incomplete or _near(short, hint_short)):
        if hint_short in ctx.api_names and _near(short, hint_short):
            return Verdict(
                "error",
                "ascendc.unknown_api",
                f"'{short}' is not an AscendC API; did you mean '{hint_short}'?",
            )
        return Verdict("error", "clang.undeclared", f"'{name}' is not declared; did you mean '{hint}'?")
    near = closest(short, ctx.api_names, strict=ctx.context_incomplete)
    if near is not None and short not in ctx.declared:
        return Verdict(
            "error", "ascendc.unknown_api", f"'{short}' is not an AscendC API; did you mean '{near}'?"
        )
    strong = _strong_near_miss(short, ctx)
    if strong is not None:
        return Verdict(
            "error",
            "ascendc.unknown_api",
            f"'{short}' is not an AscendC API; did you mean '{strong}'? (only vendor-internal headers "
            "are missing, and they do not declare near misses of the interface's names)",
        )
    if BUILD_MACRO_RE.match(short) or ctx.context_incomplete:
        ctx.lenient_names.add(short)
        where = "context the snippet does not show" if ctx.snippet else "a missing include"
        return Verdict(
            "warning", "surface.unknown", f"'{name}' is not declared here; it may come from {where}"
        )
    if namespace.startswith("std"):
        ctx.lenient_names.add(short)
        return Verdict(
            "warning", "surface.unknown", f"'{namespace}::{name}' is not in the surface's minimal C++ library"
        )
    scope = f" in namespace '{namespace}'" if namespace else ""
    return Verdict("error", "clang.undeclared", f"use of undeclared identifier '{name}'{scope}")


_ALL_CAPS_RE = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{2,}[0-9]*$")


def _build_system_name(name: str) -> str:
    """Why an undeclared name may be the build system's (empty when nothing suggests it)."""
    if re.match(r"^(?:acl[A-Z_a-z]|ACL_|rt[A-Z])", name):
        return "a name of the host runtime (acl), which the surface does not declare"
    if name.startswith("__"):
        return "names beginning with __ belong to the compiler (built-ins the surface does not model)"
    if name.endswith("TilingData"):
        return "tiling structures are generated from host definitions the checker did not find"
    if _ALL_CAPS_RE.match(name):
        return "an all-caps name may be a macro the build defines (-D)"
    return ""


def _unknown_identifiers(text: str, ctx: Context) -> list[str]:
    return sorted(n for n in set(IDENT_RE.findall(_code_only(text))) if n not in ctx.known)


SYNTAX_RECOVERY_RE = re.compile(
    r"^(?:extraneous closing brace|expected (?:'[^']+'|expression|unqualified-id|member name|a type)|"
    r"unknown type name|a type specifier is required|missing '[^']+' at end of|"
    r"use of class template '[^']+' requires template arguments|"
    r"redefinition of '[^']+' as different kind of symbol)"
)
# A class whose header (base clause, template arguments) names something unknown is misparsed as a
# whole; errors anywhere in its body are follow-ons. Function and namespace headers are not.
CLASS_HEADER_RE = re.compile(r"\b(?:struct|class)\b")
_NO_MATCH_RE = re.compile(r"^no matching (?:function|member function) for call to '(?P<name>\w+)'")
ASCEND_TYPE_MARKERS = ("Tensor", "MaskReg", "AddrReg", "UnalignReg", "AscendC::")


def _shadowed_call(message: str, failed_calls: list[tuple[str, list[str]]], ctx: Context) -> str | None:
    """A failed call to an AscendC tensor API whose arguments are not AscendC values: with a header
    missing, the kernel most likely meant its own scalar helper of the same name (`Ceil(a, b)`).
    (A scalar AscendC utility such as `CeilDivision(a, b)` is what scalar arguments are for.)"""
    match = _NO_MATCH_RE.match(message)
    if not match or not ctx.context_incomplete:
        return None
    name = match.group("name")
    if ctx.tensor_apis and name not in ctx.tensor_apis:
        return None
    for call_name, arg_types in failed_calls:
        if call_name != name or not arg_types:
            continue
        if any("dependent" in t or any(m in t for m in ASCEND_TYPE_MARKERS) for t in arg_types):
            return None
        return name
    return None


# The compiler's built-in enums (global, declared by the surface's prelude with every member).
COMPILER_ENUMS = frozenset({"pipe_t", "event_t", "mem_dsb_t", "QuantMode_t", "pad_t"})


def _closed_class_member(name: str, owner: str, ctx: Context) -> bool:
    """`no member named NAME in OWNER` cannot be a follow-on of a missing include: OWNER is defined
    by the unit with a header naming only known things, and NAME is written nowhere else (a member
    whose declaration failed to parse would be)."""
    if not ctx.known:
        return False
    short = re.sub(r"<.*", "", owner).split("::")[-1]
    header = ctx.class_headers.get(short)
    if header is None or _unknown_identifiers(header, ctx):
        return False
    if name in ctx.lenient_names:
        return False
    return len(re.findall(rf"\b{re.escape(name)}\b", ctx.unit_text)) <= 1


def _member_verdict(name: str, owner: str, message: str, ctx: Context) -> Verdict | None:
    short_owner = re.sub(r"<.*", "", owner).split("::")[-1]
    if UNKNOWN_TILING in owner:
        return Verdict("warning", "surface.tiling", f"tiling field '{name}': the tiling structure is unknown")
    if "Curate" in owner or owner.startswith("AscendC::Te::"):  # the approximated tensor API
        near = closest(name, ctx.api_names, strict=True)
        if near and name not in ctx.known:
            return Verdict("error", "ascendc.unknown_member", f"{message}; did you mean '{near}'?")
        return Verdict(
            "warning", "surface.unproven", f"{message} (not counted: the surface approximates this type)"
        )
    if (owner.startswith("AscendC::") or owner in COMPILER_ENUMS) and short_owner not in ctx.corrected_to:
        # the object is an AscendC class (or compiler enum) the surface declares completely: a
        # missing member is an error whatever else on the line is unknown
        return Verdict("error", "ascendc.unknown_member", message)
    if short_owner in ctx.tiling_fields:
        # a tiling structure rebuilt from the operator's host sources: a near miss of one of its
        # fields is a misspelling; another name may be a field the checker did not read
        near = closest(name, ctx.tiling_fields[short_owner])
        if near:
            return Verdict("error", "clang.no_member", f"{message}; did you mean '{near}'?")
        return Verdict(
            "warning",
            "surface.tiling",
            f"tiling field '{name}' is not in '{short_owner}' as read from the host sources: {message}",
        )
    if _closed_class_member(name, owner, ctx):
        # a class the kernel defines, whose bases are all known: no missing header can add members
        return Verdict("error", "clang.no_member", message)
    return None


def classify_diagnostic(
    message: str,
    line_text: str,
    in_context_file: bool,
    ctx: Context,
    headers: tuple[str, ...] = (),
    failed_calls: list[tuple[str, list[str]]] | None = None,
    notes: list[Note] | None = None,
) -> Verdict:
    """Judge one clang error located in the unit's own files (or in synthesised context)."""
    if in_context_file:
        return Verdict("warning", "surface.context", f"in the synthesised operator context: {message}")
    found = NOT_FOUND_RE.match(message)
    if found:
        return Verdict("warning", "include.missing", f"include '{found.group('name')}' not found")
    if line_text.lstrip().startswith("#"):
        return Verdict(
            "warning", "surface.context", f"a preprocessor condition on build-system macros: {message}"
        )
    for pattern in UNKNOWN_NAME_PATTERNS:
        match = pattern.match(message)
        if match:
            groups = match.groupdict()
            return classify_unknown(groups["name"], groups.get("ns") or "", groups.get("hint") or "", ctx)
    member = NO_MEMBER_RE.match(message)
    if member:
        verdict = _member_verdict(member.group("name"), member.group("owner"), message, ctx)
        if verdict is not None:
            return verdict
    notes = notes or []
    if host_device_pair(message, line_text, notes):
        return Verdict(
            "warning",
            "surface.unproven",
            f"{message} (not counted: a host and a device function of one name)",
        )
    on_lenient_line = bool(ctx.lenient_names and set(IDENT_RE.findall(line_text)) & ctx.lenient_names)
    shadowed = _shadowed_call(message, failed_calls or [], ctx)
    if not shadowed:
        trust = not ctx.context_incomplete and not on_lenient_line
        verdict = evidence_verdict(message, notes, ctx.records, trust)
        # next to a name the surface cannot know (or one clang corrected), only a count is evidence
        callee = re.search(r"call to '(\w+)'", message)
        counted = verdict is not None and (
            not on_lenient_line
            or (verdict.check.endswith(".arity") and not (callee and callee.group(1) in ctx.lenient_names))
        )
        if verdict is not None and counted:
            return verdict
    if on_lenient_line:
        return Verdict(
            "warning", "surface.cascade", f"follows from a name the surface cannot know: {message}"
        )
    if ctx.context_incomplete and ctx.known:
        lenient = _incomplete_context_verdict(message, line_text, ctx, headers, shadowed)
        if lenient is not None:
            return lenient
    reason = surface_dependency(line_text, notes, ctx.surface_names, message)
    if ctx.in_host:
        reason = "host code: the surface declares the device interface only"
    if reason:
        return Verdict("warning", "surface.unproven", f"{message} (not counted: {reason})")
    return Verdict("error", "clang", message)


def _incomplete_context_verdict(
    message: str, line_text: str, ctx: Context, headers: tuple[str, ...], shadowed: str | None
) -> Verdict | None:
    unknown = _unknown_identifiers(line_text, ctx)
    if unknown:
        return Verdict(
            "warning",
            "surface.cascade",
            f"involves {', '.join(unknown[:3])}, not declared here (a missing include?): {message}",
        )
    if shadowed:
        return Verdict(
            "warning",
            "surface.shadowed",
            f"'{shadowed}' is called with non-AscendC arguments; probably a helper from a missing include: {message}",
        )
    if ctx.tu_has_cascade and SYNTAX_RECOVERY_RE.match(message):
        return Verdict(
            "warning", "surface.cascade", f"parser recovery after an earlier unknown name: {message}"
        )
    for header in headers:
        if not CLASS_HEADER_RE.search(header):
            continue
        unknown = _unknown_identifiers(header, ctx)
        if unknown:
            return Verdict(
                "warning",
                "surface.cascade",
                f"inside a block that uses {', '.join(unknown[:3])}, not declared here (a missing include?): {message}",
            )
    return None
