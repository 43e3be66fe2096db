"""The host side of an operator project (`op_host/`): the OpDef registration and the tiling function.

OpDef registration is a chain of builder calls (`this->Input("x").ParamType(REQUIRED)
.DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});`); we read it from the text, one
statement at a time, which holds for every registration style seen in public repositories.
"""

from __future__ import annotations

import functools
import re

from parsers.facts import word_re
from schemas import OpDef, Param, TensorSpec
from schemas.cpp import mask_comments_and_literals

# The host code of a unit is masked by both readers below, for each entry of its file: once.
_masked = functools.lru_cache(maxsize=4)(mask_comments_and_literals)

_OPDEF_CLASS_RE = word_re("class", r"\s+(\w+)\s*:\s*public\s+(?:ops::)?OpDef\b")
_TENSOR_RE = word_re("this", r"\s*->\s*(Input|Output|Attr)\s*\(\s*\"([^\"]+)\"\s*\)([^;]*);", re.DOTALL)
_PARAM_TYPE_RE = re.compile(r"\.\s*ParamType\s*\(\s*(\w+)\s*\)")
_LIST_RE = {
    "dtypes": re.compile(r"\.\s*DataType(?:List)?\s*\(\s*\{([^}]*)\}"),
    "formats": re.compile(r"\.\s*Format(?:List)?\s*\(\s*\{([^}]*)\}"),
}
_ATTR_TYPE_RE = re.compile(r"\.\s*(Int|Float|Bool|String|ListInt|ListFloat|ListBool|ListListInt|Int64)\s*\(")
_CONFIG_RE = word_re("AddConfig", r"\s*\(\s*\"([^\"]+)\"")
_TILING_FUNC_RES = (
    word_re("IMPL_OP_OPTILING", r"\s*\(\s*\w+\s*\)[^;]*?\.\s*Tiling\s*\(\s*([\w:]+)", re.DOTALL),
    word_re("SetTiling", r"\s*\(\s*([\w:]+)\s*\)"),
)
_TILING_SIGNATURE_RE = word_re("ge::graphStatus", r"\s+(\w+)\s*\(\s*gert::TilingContext\s*\*")


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _listed(chain: str, key: str) -> list[str]:
    values: list[str] = []
    for m in _LIST_RE[key].finditer(chain):
        values += [v.strip().split("::")[-1] for v in m.group(1).split(",") if v.strip()]
    return _unique(values)


def parse_op_def(host_code: str) -> OpDef | None:
    """The OpDef registered in `host_code`, or None when it registers none."""
    code = _masked(host_code)
    cls = _OPDEF_CLASS_RE.search(code)
    if not cls:
        return None
    op = OpDef(op_type=cls.group(1))
    # String literals were blanked by mask_comments_and_literals; read the names from the original text.
    for m in _TENSOR_RE.finditer(host_code):
        kind, name, chain = m.groups()
        chain = mask_comments_and_literals(chain)
        if kind == "Attr":
            attr_type = _ATTR_TYPE_RE.search(chain)
            op.attrs.append(Param(name, attr_type.group(1) if attr_type else ""))
            continue
        param_type = _PARAM_TYPE_RE.search(chain)
        spec = TensorSpec(
            name=name,
            param_type=param_type.group(1) if param_type else "REQUIRED",
            dtypes=_listed(chain, "dtypes"),
            formats=_listed(chain, "formats"),
        )
        (op.inputs if kind == "Input" else op.outputs).append(spec)
    op.socs = _unique(_CONFIG_RE.findall(host_code))
    return op


def tiling_function(host_code: str) -> str:
    """The host tiling function's name: registered with IMPL_OP_OPTILING/SetTiling, or by signature."""
    code = _masked(host_code)
    for regex in _TILING_FUNC_RES:
        m = regex.search(code)
        if m:
            return m.group(1).split("::")[-1]
    m = _TILING_SIGNATURE_RE.search(code)
    return m.group(1) if m else ""
