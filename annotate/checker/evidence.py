"""Which of clang's own errors prove a kernel wrong, and which only show what the surface cannot know.

The surface declares several generations of the AscendC interface, approximately: some overloads,
`constexpr` definitions and template parameter lists of the vendor headers are not reproduced.
A clang error is therefore only counted when it carries positive evidence that does not depend
on those approximations:

- every candidate of a failed call was rejected for its number of arguments (clang's notes say
  "requires N arguments, but M were provided"), or for an argument of another kind (a tensor where
  a scalar belongs, a GlobalTensor where a LocalTensor belongs, one AscendC parameter record for
  another);
- a conversion between two fully known types of different kinds (`LocalTensor<half>` to
  `LocalTensor<float>`, a tensor to a scalar);
- a type given where a template expects a value, or a value where it expects a type.

Other clang errors on lines that use the surface (or the unit's own code built on it) are
reported as warnings with their reason; only errors in code that involves nothing the surface
declares stay errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

IDENT_RE = re.compile(r"\b[A-Za-z_]\w*\b")


@dataclass(frozen=True, slots=True)
class Verdict:
    severity: str  # error | warning
    check: str
    message: str


TENSORS = ("LocalTensor", "GlobalTensor")
BUILTIN_SCALARS = frozenset(
    {
        "bool",
        "char",
        "signed char",
        "unsigned char",
        "short",
        "unsigned short",
        "int",
        "unsigned int",
        "long",
        "unsigned long",
        "long long",
        "unsigned long long",
        "float",
        "double",
        "half",
        "_Float16",
        "__fp16",
        "__bf16",
        "bfloat16_t",
        "int8_t",
        "uint8_t",
        "int16_t",
        "uint16_t",
        "int32_t",
        "uint32_t",
        "int64_t",
        "uint64_t",
        "size_t",
    }
)


@dataclass(frozen=True, slots=True)
class Note:
    """One note clang attached to an error (a candidate it rejected, a declaration it found)."""

    message: str
    in_surface: bool
    approximate: bool = False  # it points at a surface declaration marked as an approximation
    line_text: str = ""  # the unit's source line it points at ("" outside the unit)


_CALL_FAILED_RE = re.compile(
    r"^no matching (?:member )?function for call to '(?P<name>[\w:~]+)'|"
    r"^no matching constructor for initialization of '(?P<type>[^']+)'"
)
_DIRECT_ARITY_RE = re.compile(
    r"^too (?:many|few) arguments (?:to (?:function|method) call|provided to function-like macro invocation)"
)
_ARITY_NOTE_RE = re.compile(
    r"not viable: requires (?:at least |at most )?(?:\d+ arguments?|(?:single )?argument '[^']*'), "
    r"but (?:\d+|no)(?: arguments?)? (?:was|were) provided"
)
_NO_CONVERSION_NOTE_RE = re.compile(
    r"not viable: no known conversion from '(?P<arg>[^']+)'(?: \(aka '[^']+'\))? to '(?P<param>[^']+)'"
)
_NO_MATCH_NOTE_RE = re.compile(
    r"candidate template ignored: could not match '(?P<param>[^']+)' against '(?P<arg>[^']+)'"
)
_CANDIDATE_RE = re.compile(r"^candidate |not viable|candidate template ignored")
_CONVERSION_RES = (
    re.compile(
        r"^no viable conversion from (?:returned value of type )?'(?P<a>[^']+)'(?: \(aka '[^']+'\))? to (?:function return type )?'(?P<b>[^']+)'"
    ),
    re.compile(
        r"^cannot initialize (?:a variable|a parameter|return object|a member subobject) of type "
        r"'(?P<b>[^']+)'(?: \(aka '[^']+'\))? with an (?:l|r)value of type '(?P<a>[^']+)'"
    ),
    re.compile(r"^assigning to '(?P<b>[^']+)'(?: \(aka '[^']+'\))? from incompatible type '(?P<a>[^']+)'"),
    re.compile(
        r"^non-const lvalue reference to type '(?P<b>[^']+)'(?: \(aka '[^']+'\))? cannot bind to a "
        r"(?:value|temporary) of (?:unrelated )?type '(?P<a>[^']+)'"
    ),
)
_TEMPLATE_ARGUMENT_RE = re.compile(
    r"^template argument for (?:non-type template|template type|template template) parameter must be"
)


def spelled_kind(spelling: str, records: frozenset[str] | set[str], trust_int: bool = True) -> str:
    """A type spelling's coarse kind: LocalTensor, GlobalTensor, scalar, pointer, the name of an
    AscendC parameter record, or "?" (anything the check should not judge). Plain `int` is also
    what clang gives a declaration it could not resolve: `trust_int=False` reads it as "?"."""
    t = re.sub(r"\b(?:const|volatile|struct|class|typename)\b", "", spelling).strip()
    t = t.rstrip("&").strip()
    if t == "int" and not trust_int:
        return "?"
    if t.endswith(("*", "]")):
        return "pointer"
    base = re.sub(r"<.*", "", t).strip().removeprefix("::")
    short = base.split("::")[-1]
    if short in TENSORS and (base == short or base.startswith("AscendC::")):
        return short
    if t in BUILTIN_SCALARS or base in BUILTIN_SCALARS:
        return "scalar"
    if short in records and (base == short or base.startswith("AscendC::")) and "<" not in t:
        return short
    return "?"


def _element_type(spelling: str) -> str:
    match = re.search(r"<\s*([^<>]+?)\s*>", spelling)
    return match.group(1) if match else ""


def kinds_conflict(param: str, arg: str) -> bool:
    """Whether an argument of kind `arg` can never bind to a parameter of kind `param`."""
    if "?" in (param, arg) or param == arg:
        return False
    if param == "pointer":
        return arg not in ("pointer", "scalar")
    if param == "scalar":
        return arg != "scalar"
    return True  # a tensor or an AscendC record: nothing else converts to it


def _note_reason(note: Note, records: frozenset[str] | set[str], trust_scalars: bool) -> str:
    """Why clang rejected one candidate: "arity", "kind", "other", or "" (not a candidate note)."""
    if _ARITY_NOTE_RE.search(note.message):
        return "arity"
    match = _NO_CONVERSION_NOTE_RE.search(note.message) or _NO_MATCH_NOTE_RE.search(note.message)
    if match:
        param = spelled_kind(match["param"], records, trust_scalars)
        arg = spelled_kind(match["arg"], records, trust_scalars)
        return "kind" if kinds_conflict(param, arg) else "other"
    if _CANDIDATE_RE.search(note.message):
        return "other"
    return ""


def call_verdict(
    message: str, notes: list[Note], records: frozenset[str] | set[str], trust_scalars: bool
) -> Verdict | None:
    """An error for a failed call whose every candidate is ruled out by argument count or kind."""
    if _DIRECT_ARITY_RE.match(message):
        surface = any(n.in_surface for n in notes)
        return Verdict("error", "ascendc.arity" if surface else "clang.arity", message)
    match = _CALL_FAILED_RE.match(message)
    if not match:
        return None
    candidates = [n for n in notes if _note_reason(n, records, trust_scalars)]
    reasons = {_note_reason(n, records, trust_scalars) for n in candidates}
    if not candidates or "other" in reasons:
        return None
    if reasons != {"arity"} and any(n.approximate for n in candidates):
        return None  # an approximated overload set says nothing about argument kinds
    surface = any(n.in_surface for n in candidates)
    if reasons == {"arity"}:
        check = "ascendc.arity" if surface else "clang.arity"
        return Verdict("error", check, f"{message}: no candidate takes this number of arguments")
    check = "ascendc.argument_types" if surface else "clang.argument_types"
    return Verdict("error", check, f"{message}: every candidate needs another number or kind of arguments")


def conversion_verdict(
    message: str, records: frozenset[str] | set[str], trust_scalars: bool
) -> Verdict | None:
    """An error for a conversion between fully known types of different kinds (or tensors of
    different element types, which AscendC never converts implicitly)."""
    for pattern in _CONVERSION_RES:
        match = pattern.match(message)
        if not match:
            continue
        a, b = match["a"], match["b"]
        ka, kb = spelled_kind(a, records, trust_scalars), spelled_kind(b, records, trust_scalars)
        if kinds_conflict(kb, ka):
            return Verdict("error", "clang.type_mismatch", message)
        if ka == kb and ka in TENSORS:
            ea, eb = _element_type(a), _element_type(b)
            if ea in BUILTIN_SCALARS and eb in BUILTIN_SCALARS and ea != eb:
                return Verdict("error", "clang.type_mismatch", message)
        return None
    return None


def template_argument_verdict(message: str, notes: list[Note]) -> Verdict | None:
    """A type where a template expects a value (or the reverse): the template's own declaration
    decides, unless it is one of the surface's approximations (open parameter packs)."""
    if not _TEMPLATE_ARGUMENT_RE.match(message) or any(n.approximate for n in notes):
        return None
    check = "ascendc.template_argument" if any(n.in_surface for n in notes) else "clang.template_argument"
    return Verdict("error", check, message)


def evidence_verdict(
    message: str, notes: list[Note], records: frozenset[str] | set[str], trust_scalars: bool
) -> Verdict | None:
    return (
        call_verdict(message, notes, records, trust_scalars)
        or conversion_verdict(message, records, trust_scalars)
        or template_argument_verdict(message, notes)
    )


_ACCESS_IN_INSTANCE_RE = re.compile(r"^'\w+' is a (?:protected|private) member of '[^']*<")
_TILING_NAME_RE = re.compile(r"'[^']*TilingData[^']*'")


def surface_dependency(line_text: str, notes: list[Note], surface_names: set[str], message: str = "") -> str:
    """Why an error without positive evidence may come from the surface's approximations or the
    build's context ("" when the line involves nothing the checker approximates)."""
    if _ACCESS_IN_INSTANCE_RE.match(message):
        return "an access check inside a template instantiation whose arguments the checker approximates"
    if "cannot be narrowed" in message:
        return "narrowing in a braced initialiser, which the vendor device compiler accepts"
    if "Curate" in message:  # CurateTeValue and kin: the surface's stand-ins for approximated types
        return "it involves a type the surface approximates"
    if message.startswith("static assertion failed"):
        return "a static assertion over template dispatch and type traits the surface approximates"
    if any("substitution failure" in n.message for n in notes):
        return "template substitution on element types the checker models with host types"
    if "constant expression" in message:
        return "whether a surface function is constexpr is approximated"
    if "implicitly-deleted" in message:
        return "special members depend on the surface's element types (bfloat16_t and kin are classes here)"
    if _TILING_NAME_RE.search(message):
        return "tiling structures come from host definitions"
    if any(n.in_surface for n in notes):
        return "it involves AscendC declarations the surface approximates"
    used = sorted(set(IDENT_RE.findall(line_text)) & surface_names)
    if used:
        return f"the line uses {', '.join(used[:3])}, which the surface declares approximately"
    return ""


_REDEFINITION_RE = re.compile(r"^redefinition of '[^']+'$")
_DEVICE_MARK_RE = re.compile(r"__aicore__|__global__|__simt|__simd|CATLASS_DEVICE|CATLASS_HOST_DEVICE")


def host_device_pair(message: str, line_text: str, notes: list[Note]) -> bool:
    """`redefinition of 'f'` where one definition is a device (`__aicore__`) function and the other
    a host function: the heterogeneous compiler keeps both."""
    if not _REDEFINITION_RE.match(message):
        return False
    here = bool(_DEVICE_MARK_RE.search(line_text))
    return any(n.line_text and bool(_DEVICE_MARK_RE.search(n.line_text)) != here for n in notes)
