"""Facts read from source text: API calls, tiling macros, tiling keys, queues, core type.

These are macros or call sites whose callees are declared in the vendor headers we do not
have, so clang's AST cannot resolve them; the text after comment and string stripping can.
"""

from __future__ import annotations

import re

from schemas import TilingField
from schemas.ascendc.catalog import api_names


def word_re(word: str, rest: str, flags: int = 0) -> re.Pattern[str]:
    r"""`\bWORD` + `rest`, compiled as `WORD(?<!\wWORD)` + `rest`: the same matches (WORD not
    preceded by a word character), but a pattern that opens with a literal is searched for at C
    speed, while one that opens with `\b` is tried at every character (30x slower over a unit's
    code: issue 30, the text facts were a third of an ingest's Python time)."""
    return re.compile(re.escape(word) + r"(?<!\w" + re.escape(word) + ")" + rest, flags)


# A call of a capitalised name: `\b([A-Z]\w*)` opening with a character class (see word_re); whether
# it is written `AscendC::Name(` is read before the match (`_qualified`), not by an optional group
# at the pattern's start, which made re try the whole pattern at every character.
# Template arguments are read at most 512 characters on, and `\s*(?:<...>)?\s*` is written
# `\s*(?:<...>\s*)?` (the same calls): on hostile code, 100 KB of `A<` took 29 s and a name followed
# by 100 KB of spaces 8 s, each run of spaces split every way between the two `\s*`.
_CALL_RE = re.compile(r"([A-Z](?<!\w[A-Z])\w*)\s*(?:<[^;(){}=.]{0,512}?>\s*)?\(")
# Vector ops of the Ops::Base DAG framework (`Bind<Vec::Compare<...>, ...>`) used by newer kernels.
_DAG_OP_RE = word_re("Vec", r"\s*::\s*([A-Z]\w*)")
# The C-style and SIMT interface (`asc_vf_call<...>(...)`, `asc_copy_gm2ub(...)`).
_C_API_RE = re.compile(r"(asc_(?<!\wasc_)\w+)\s*(?:<[^;(){}=.]{0,512}?>\s*)?\(")  # \b(asc_\w+), see word_re
_TILING_BEGIN_RE = word_re("BEGIN_TILING_DATA_DEF", r"\s*\(\s*(\w+)\s*\)")
_TILING_FIELD_RE = word_re(
    "TILING_DATA_FIELD_DEF", r"(_ARR|_STRUCT)?\s*\(\s*([\w:]+)\s*,\s*(?:(\w+)\s*,\s*)?(\w+)\s*\)"
)
_TILING_STRUCT_USES = (
    "GET_TILING_DATA_WITH_STRUCT",
    "REGISTER_TILING_DEFAULT",
    "GET_TILING_DATA_PTR_WITH_STRUCT",
)
_TILING_STRUCT_USE_RE = re.compile(  # \b(?:A|B|C)\s*\(..., each word as word_re writes it
    "(?:" + "|".join(f"{w}(?<!\\w{w})" for w in _TILING_STRUCT_USES) + r")\s*\(\s*([\w:]+)"
)
# A key is read at most 256 characters on: 7,000 unclosed `TILING_KEY_IS(` took 5 s per 100 KB.
_TILING_KEY_RE = word_re("TILING_KEY_IS", r"\s*\(\s*([^)]{1,256}?)\s*\)")
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+\(?([0-9]+)[uUlL]*\)?[ \t]*$", re.MULTILINE)
_CONST_RE = word_re("const", r"(?:expr)?\s+[\w:]+\s+(\w+)\s*=\s*\(?([0-9]+)[uUlL]*\)?\s*;")
# \b(?:QuePosition|TPosition)::NAME, opening with the literal both spellings share (see word_re)
_POSITION_RE = re.compile(r"Position(?:(?<=\bQuePosition)|(?<=\bTPosition))\s*::\s*(\w+)")
_QUE_RE = word_re("TQue", r"\s*<\s*[\w:]+\s*,\s*([\w:]+)\s*[,>]")
_QUE_BIND_RE = word_re("TQueBind", r"\s*<\s*[\w:]+\s*,\s*[\w:]+\s*,\s*([\w:]+)\s*[,>]")
_INIT_BUFFER_RE = word_re("InitBuffer", r"\s*\(\s*\w+\s*,\s*([\w:]+)\s*,")

CUBE_POSITIONS = {"A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2"}
VECTOR_POSITIONS = {"VECIN", "VECOUT", "VECCALC"}
CUBE_APIS = {"Mmad", "LoadData", "Fixpipe", "Matmul", "IterateAll", "SetTensorA", "SetTensorB", "GetTensorC"}
_KERNEL_TYPE_RE = word_re("KERNEL_TYPE_", r"(\w+)")
# An entry's qualifiers are read at most 512 characters after `__global__`: unbounded, 9,000
# `__global__ ` without a `;`, `{` or `(` scanned to the end once each (24 s per 100 KB).
_MIX_ENTRY_RE = word_re("__global__", r"\b[^;{(]{0,512}\b__mix__\s*\(")
_CUBE_ENTRY_RE = word_re("__global__", r"\b[^;{(]{0,512}\b__cube__\b")
_VECTOR_ENTRY_RE = word_re("__global__", r"\b[^;{(]{0,512}\b__vector__\b")
# Entries and kernel classes that name their cores: `__attribute__((aic))` / `((aiv))` on an entry,
# catlass's per-core `operator()<AscendC::AIC>(...)` bodies (an empty body: that core does nothing).
_CORE_ATTRIBUTE_RE = re.compile(r"__attribute__\s*\(\(\s*(aic|aiv)\s*\)\)")
_CORE_OPERATOR_RE = word_re(
    "operator", r"\s*\(\s*\)\s*<\s*(?:AscendC\s*::\s*)?AI([CV])\s*>\s*\([^;{]*\)\s*\{(\s*\})?"
)
# Cross-core synchronisation, also through a library's wrapper (`Arch::CrossCoreSetFlag<...>(...)`).
_CROSS_CORE_RE = word_re("CrossCore", r"(?:Set|Wait)Flag\b")
# A call of a matrix-multiply block or tile (`blockMmad(...)`, `tileMmad(...)`): the cube at work.
# (`\b\w*[mM]mad\w*\s*\(` finds the same calls: the word before [mM]mad always reaches a boundary)
_MMAD_CALL_RE = re.compile(r"[mM]mad\w*\s*\(")
# Calls that build values rather than run an operation.
_NOT_API_SUFFIXES = ("Params", "Param", "Config", "Cfg", "Info")


def api_calls(code: str, defined_locally: set[str]) -> list[str]:
    """AscendC APIs called in `code` (comments stripped), sorted unique.

    A call counts when its name is an AscendC API name (the catalog derived from the surface
    headers, `schemas.ascendc.catalog.api_names`) or is written `AscendC::Name(`, and the unit
    does not define a function or method of that name itself; a call written `AscendC::Name(`
    is the API's even then (a kernel class may define its own `GetBlockNum` beside the API's).
    """
    vocabulary = api_names()
    found: set[str] = set()
    for m in _CALL_RE.finditer(code):
        name = m.group(1)
        if name.endswith(_NOT_API_SUFFIXES):
            continue
        if (name in vocabulary and name not in defined_locally) or _qualified(code, m.start()):
            found.add(name)
    found.update(m.group(1) for m in _DAG_OP_RE.finditer(code))
    found.update(m.group(1) for m in _C_API_RE.finditer(code) if m.group(1) not in defined_locally)
    return sorted(found)


def _qualified(code: str, start: int) -> bool:
    """Whether the name at `start` is written after `AscendC::` (blanks allowed around `::`)."""
    i = start
    while i > 0 and code[i - 1].isspace():
        i -= 1
    if i < 2 or code[i - 2 : i] != "::":
        return False
    i -= 2
    while i > 0 and code[i - 1].isspace():
        i -= 1
    return i >= 7 and code[i - 7 : i] == "AscendC"


def integer_constants(code: str) -> dict[str, int]:
    """`#define NAME 3` and `constexpr T NAME = 3;` values, to resolve tiling keys and buffer counts."""
    values = {m.group(1): int(m.group(2)) for m in _DEFINE_RE.finditer(code)}
    values.update({m.group(1): int(m.group(2)) for m in _CONST_RE.finditer(code)})
    return values


def _resolve_int(token: str, constants: dict[str, int]) -> int | None:
    token = token.strip().rstrip("uUlL")
    if token.isdigit():
        return int(token)
    return constants.get(token.split("::")[-1])


def tiling_macro_fields(text: str) -> tuple[str, list[TilingField]]:
    """The first `BEGIN_TILING_DATA_DEF(Name)` block and its fields."""
    begin = _TILING_BEGIN_RE.search(text)
    if not begin:
        return "", []
    end = text.find("END_TILING_DATA_DEF", begin.end())
    block = text[begin.end() : end if end >= 0 else len(text)]
    fields = []
    for m in _TILING_FIELD_RE.finditer(block):
        kind, ftype, size, name = m.groups()
        array_size = int(size) if kind == "_ARR" and size and size.isdigit() else 0
        fields.append(TilingField(name, ftype, array_size))
    return begin.group(1), fields


def tiling_struct_names(code: str) -> list[str]:
    """Structs the kernel names as its tiling data (`GET_TILING_DATA_WITH_STRUCT(T, ...)` etc.)."""
    return list(dict.fromkeys(m.group(1).split("::")[-1] for m in _TILING_STRUCT_USE_RE.finditer(code)))


def tiling_keys(code: str, constants: dict[str, int]) -> list[int]:
    keys = {_resolve_int(m.group(1), constants) for m in _TILING_KEY_RE.finditer(code)}
    return sorted(k for k in keys if k is not None)


def queue_positions(code: str) -> list[str]:
    return sorted(set(_POSITION_RE.findall(code)))


def buffer_num(code: str, constants: dict[str, int]) -> int:
    """The largest queue depth declared (`TQue<VECIN, 2>`, `InitBuffer(q, BUFFER_NUM, ...)`)."""
    counts = [
        _resolve_int(m.group(1), constants)
        for regex in (_QUE_RE, _QUE_BIND_RE, _INIT_BUFFER_RE)
        for m in regex.finditer(code)
    ]
    return max((c for c in counts if c is not None and 0 < c <= 64), default=0)


def core_type(code: str, apis: list[str], positions: list[str]) -> str:
    """vector | cube | mixed, from the declared kernel type, queue positions and cube APIs."""
    declared = _KERNEL_TYPE_RE.findall(code)
    # Single-source entries declare their cores: `__global__ __vector__`, `__cube__`, `__mix__(1, 2)`.
    if _MIX_ENTRY_RE.search(code):
        return "mixed"
    if _CUBE_ENTRY_RE.search(code):
        return "cube"
    if _VECTOR_ENTRY_RE.search(code):
        return "vector"
    if (named := _named_cores(code)) is not None:
        return named
    # KERNEL_TYPE_MIX_AIV_1_0 runs on vector cores only, MIX_AIC_1_0 on cube cores only;
    # MIX_AIC_1_1 / 1_2 pair them.
    if any(t.startswith("MIX_AIC_1_") and not t.endswith("_0") for t in declared):
        return "mixed"
    if "CrossCoreSetFlag" in apis or "CrossCoreWaitFlag" in apis or _CROSS_CORE_RE.search(code):
        return "mixed"
    if any(t in ("AIC_ONLY", "MIX_AIC_1_0") for t in declared) or "ASCENDC_CUBE_ONLY" in code:
        return "cube"
    if any(t in ("AIV_ONLY", "MIX_AIV_1_0") for t in declared):
        return "vector"
    # `if ASCEND_IS_AIC { return; }` guards appear in pure vector kernels too: only queue
    # positions and cube APIs say which units a kernel really drives.
    cube = bool(CUBE_POSITIONS & set(positions)) or bool(CUBE_APIS & set(apis))
    vector = bool(VECTOR_POSITIONS & set(positions))
    if not cube and not vector:
        # no queue and no cube call in the unit (a template library's kernel class drives its
        # blocks): the branches it gives each core, when one does more than return
        cube = _working_branch("AIC", code) or _MMAD_CALL_RE.search(code) is not None
        vector = _working_branch("AIV", code)
    if cube and vector:
        return "mixed"
    return "cube" if cube else "vector"


def _named_cores(code: str) -> str | None:
    """The cores a kernel names itself (see `_CORE_ATTRIBUTE_RE`), None when it names none."""
    cores = {m.group(1) for m in _CORE_ATTRIBUTE_RE.finditer(code)}
    cores |= {
        "aic" if m.group(1) == "C" else "aiv" for m in _CORE_OPERATOR_RE.finditer(code) if not m.group(2)
    }
    if cores == {"aic", "aiv"}:
        return "mixed"
    if cores:
        return cores.pop().replace("aic", "cube").replace("aiv", "vector")
    return None


def _working_branch(core: str, code: str) -> bool:
    """Whether `if ASCEND_IS_AIC {...}` (or AIV) appears with a body that does more than return."""
    pattern = rf"if(?<!\wif)\s*\(?\s*ASCEND_IS_{core}\s*\)?\s*\{{(?!\s*return\s*;\s*\}})"  # \bif: word_re
    return re.search(pattern, code) is not None
