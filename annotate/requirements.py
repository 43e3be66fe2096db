"""What the instruction asks of an implementation, by the kind of kernel and its target.

Measured on main before this module: every instruction demanded Unified Buffer tiles and a
TPipe/TQue pipeline, also for cube-only matmuls, framework kernels that declare no queues and
SIMT kernels. The kind is read from the parsed facts (core type, APIs) and the code (queues,
SIMT launches, template-library namespaces).
"""

from __future__ import annotations

import re

from schemas import KernelUnit

_SIMT_RE = re.compile(r"__simt_vf__|\bthreadIdx\b|asc_vf_call\s*<[^>]*>\s*\(\s*dim3")
_TEMPLATE_LIBRARY_RE = re.compile(r"\bCatlass::|\bCATLASS_|\bAct::|\bGemm::Block|\bEpilogue::Block")
_QUEUE_RE = re.compile(r"\bTQue(?:Bind)?\s*<|\bTBuf\s*<")
_CUBE_LEVEL_RE = re.compile(r"\b(?:A1|B1|A2|B2|CO1|L0A|L0B|L0C|L1)\b")

REQUIREMENTS = {
    "vector-queues": (
        "Move data between global memory and the Unified Buffer with 32-byte aligned transfers, keep "
        "every tile within the Unified Buffer capacity, split the work across the AI cores, and overlap "
        "data movement with computation through the TPipe/TQue pipeline."
    ),
    "vector": (
        "Move data between global memory and the Unified Buffer with 32-byte aligned transfers, keep "
        "every tile within the Unified Buffer capacity, split the work across the vector cores, and "
        "order transfers and computation explicitly (the kernel declares no TQue queues)."
    ),
    "simt": (
        "Split the work across the vector cores and their SIMT threads, index global memory directly "
        "from each thread with index arithmetic that cannot overflow, and keep any table the threads "
        "share in the Unified Buffer."
    ),
    "cube": (
        "Stage the matrix operands from global memory through L1 into L0A/L0B in the layouts the cube "
        "unit needs, accumulate in L0C, write results back through the fixpipe, split the output tiles "
        "across the AI cube cores, and overlap transfers with Mmad where the buffers allow."
    ),
    "mixed": (
        "Run the matrix part on the cube cores (operands through L1 and L0A/L0B, accumulation in L0C) "
        "and the vector part on the vector cores (Unified Buffer tiles, 32-byte aligned), split the "
        "work across both, and synchronise the hand-over between cube and vector cores."
    ),
    "template": (
        "Compose the template library's building blocks (block and tile policies, dispatch, epilogue) "
        "for this operator, choose the tile shapes the library instantiates, and split the output "
        "tiles across the AI cores."
    ),
}


def kernel_kind(unit: KernelUnit) -> str:
    """vector-queues | vector | simt | cube | mixed | template, from the parsed facts and code."""
    code = unit.code
    if _TEMPLATE_LIBRARY_RE.search(code):
        return "template"
    if unit.core_type == "cube":
        return "cube"
    if unit.core_type == "mixed" and (_CUBE_LEVEL_RE.search(code) or "Mmad" in unit.apis or "Matmul" in code):
        return "mixed"
    if _SIMT_RE.search(code) and not _QUEUE_RE.search(code):
        return "simt"
    return "vector-queues" if _QUEUE_RE.search(code) else "vector"


def requirements(unit: KernelUnit) -> str:
    """What the instruction asks of the implementation, for this kind of kernel and target."""
    text = REQUIREMENTS[kernel_kind(unit)]
    if "/arch35/" in f"/{unit.path}" or unit.path.endswith("_apt.cpp"):
        text += " The target is Ascend950 (arch35)."
    elif unit.op_def is not None and unit.op_def.socs:
        text += f" The target SoCs are {', '.join(unit.op_def.socs)}."
    return text
