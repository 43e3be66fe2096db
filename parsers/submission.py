"""The MultiKernelBench submission format, read as ONE training candidate.

A submission is a Python file of string assignments: `project_json_src` (the op definition:
op name, inputs, outputs, attributes), `host_tiling_src`, `host_operator_src`, `kernel_src`,
`python_bind_src` and often `model_src` (the `ModelNew` that calls the op). They are one
solution of one task, so they are read together: the code a matcher compares is all of them
(each field under a marker line naming it), and the op definition is parsed from the JSON.
The file is read with `ast`, never executed.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field

from schemas.nesting import loads_json, parse_python

SUBMISSION_FIELDS = (
    "project_json_src",
    "host_tiling_src",
    "host_operator_src",
    "kernel_src",
    "python_bind_src",
    "model_src",
)
_REQUIRED = frozenset({"kernel_src", "project_json_src"})


@dataclass(slots=True)
class Submission:
    fields: dict[str, str] = field(default_factory=dict)  # field name -> its text, in file order
    op_name: str = ""  # the op definition's "op"
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)

    def as_code(self) -> str:
        """Every field under a `// <field>` marker line: the one document a matcher reads."""
        return "\n".join(f"// {name}\n{text}" for name, text in self.fields.items())


def looks_like_submission(text: str) -> bool:
    """Cheap test before parsing: both required field names assigned in the text."""
    return all(f"{name}=" in text.replace(" ", "") for name in _REQUIRED)


def _string_fields(tree: ast.Module) -> dict[str, str]:
    fields: dict[str, str] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        name = target.id if isinstance(target, ast.Name) else ""
        if name in SUBMISSION_FIELDS and isinstance(value, ast.Constant) and isinstance(value.value, str):
            fields[name] = value.value
    return fields


def _names(entries: object, key: str = "name") -> list[str]:
    if not isinstance(entries, list):
        return []
    return [str(e[key]) for e in entries if isinstance(e, dict) and key in e]


def _op_definition(sub: Submission) -> None:
    """Fill the op definition from `project_json_src`; one that is not JSON, or nested too deep
    for Python (to load, or to `str()` a value of), gives none and costs nothing else."""
    try:
        loaded = loads_json(sub.fields.get("project_json_src", ""))
    except json.JSONDecodeError:
        return
    ops = loaded if isinstance(loaded, list) else [loaded]
    op = next((o for o in ops if isinstance(o, dict)), None)
    if op is None:
        return
    try:
        op_name = str(op.get("op", ""))
        inputs, outputs, attrs = (_names(op.get(k)) for k in ("input_desc", "output_desc", "attr"))
    except RecursionError:  # a value nested too deep to write out as text
        return
    sub.op_name, sub.inputs, sub.outputs, sub.attrs = op_name, inputs, outputs, attrs


def read_submission(text: str) -> Submission | None:
    """The submission a file holds, or None when it is not one (not Python, nested too deep to
    parse, or no kernel and op definition fields)."""
    if not looks_like_submission(text):
        return None
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError):  # not Python, or nested too deep for Python's parser
        return None
    fields = _string_fields(tree)
    if not fields.keys() >= _REQUIRED:
        return None
    sub = Submission(fields=fields)
    _op_definition(sub)
    return sub
