"""Operator documentation as facts (parsers/docs.py) and the task statement built from it."""

from __future__ import annotations

import re
from pathlib import Path

from annotate.statement import check_statement, statement
from annotate.tasks.kernel_reasoning import build_instruction, instruction_and_semantics
from parsers.docs import DocFinder, extracted, parse_operator_doc, pipe_tables, tables_of
from schemas import KernelUnit, OpDef, Param, TensorSpec

# Written for these tests in the shape of operator READMEs (Chinese, HTML parameter table).
ZH_README = """# SoftShrink

## 产品支持情况

| 产品 | 是否支持 |
| ---- | :----: |
| <term>Atlas A2 训练系列产品/Atlas A2 推理系列产品</term> | √ |
| <term>Atlas 推理系列产品</term> | × |

## 功能说明

- 算子功能：对输入张量逐元素做软收缩。
- 计算公式：

  $$
  y_i = \\begin{cases} x_i - \\lambda, & x_i > \\lambda \\\\ 0, & otherwise \\end{cases}
  $$

## 参数说明

<table><thead>
  <tr><th>参数名</th><th>输入/输出/属性</th><th>描述</th><th>数据类型</th><th>数据格式</th><th>维度</th></tr>
</thead><tbody>
  <tr><td>x</td><td>输入</td><td>输入张量。</td><td>FLOAT16、FLOAT、<br>BFLOAT16</td><td>ND</td><td>1-8</td></tr>
  <tr><td>lambd</td><td>可选属性</td><td><ul><li>阈值。</li><li>默认0.5。</li></ul></td><td>FLOAT</td><td>-</td><td>-</td></tr>
  <tr><td>y</td><td>输出</td><td>输出张量。</td><td>FLOAT16、FLOAT、BFLOAT16</td><td>ND</td><td>1-8</td></tr>
</tbody></table>

## 约束说明

- lambd必须大于等于0。
"""

# English, with a markdown pipe table, in the shape of a benchmark task's api_desc.md.
EN_API_DESC = """# ClampMin

## Function

Replaces every element of x below `min_value` by `min_value`.

$$ y = \\max(x, min) $$

## Parameters

| Name | Direction | Data type | Format | Description |
|------|-----------|-----------|--------|-------------|
| x | input | float16, float32 | ND | the input tensor |
| min_value | attribute | float | - | the lower bound |
| y | output | float16, float32 | ND | same shape as x |

## Constraints

- x and y have the same shape.
"""

# A spec table whose first column is a rowspan'd direction (community operator READMEs).
SPEC_TABLE = """## Spec

- **算子功能**：按元素相加。

<table>
<tr><th>算子类型(OpType)</th><th colspan="3">AddX</th></tr>
<tr><td></td><td>name</td><td>data type</td><td>format</td></tr>
<tr><td rowspan="3">算子输入</td><td>x1</td><td>float16</td><td>ND</td></tr>
<tr><td>x2</td><td>float16</td><td>ND</td></tr>
<tr><td>x3</td><td>int32</td><td>ND</td></tr>
<tr><td rowspan="1">算子输出</td><td>y</td><td>float16</td><td>ND</td></tr>
</table>
"""


def test_chinese_readme_with_html_table_is_read_into_facts() -> None:
    doc = parse_operator_doc(ZH_README, "ops/soft_shrink/README.md")
    assert doc.language == "zh" and doc.kind == "operator-readme"
    assert doc.function == "对输入张量逐元素做软收缩。"
    assert len(doc.formulas) == 1 and "\\lambda" in doc.formulas[0]
    assert [(p.name, p.direction, p.optional) for p in doc.params] == [
        ("x", "input", False),
        ("lambd", "attribute", True),
        ("y", "output", False),
    ]
    x = doc.params[0]
    assert x.dtypes == ["float16", "float32", "bfloat16"] and x.formats == ["ND"] and x.shape == "1-8"
    assert doc.constraints == ["lambd必须大于等于0。"]
    assert doc.products == ["Atlas A2 训练系列产品/Atlas A2 推理系列产品"]
    assert extracted(doc)
    assert "<td>" not in "".join(p.description for p in doc.params)


def test_english_api_desc_with_pipe_table_is_read_into_facts() -> None:
    doc = parse_operator_doc(EN_API_DESC, "tasks/level1/Clamp/ClampMin/api_desc.md")
    assert doc.language == "en" and doc.kind == "api-desc"
    assert doc.function.startswith("Replaces every element")
    assert [p.name for p in doc.params] == ["x", "min_value", "y"]
    assert doc.params[1].direction == "attribute" and doc.params[1].dtypes == ["float32"]
    assert doc.constraints == ["x and y have the same shape."]


def test_rowspan_direction_column_is_expanded() -> None:
    grid = tables_of(SPEC_TABLE)[0]
    assert grid[3] == ["算子输入", "x2", "float16", "ND"]  # the rowspan cell repeated
    doc = parse_operator_doc(SPEC_TABLE, "a/README.md")
    assert [(p.name, p.direction, p.dtypes) for p in doc.params] == [
        ("x1", "input", ["float16"]),
        ("x2", "input", ["float16"]),
        ("x3", "input", ["int32"]),
        ("y", "output", ["float16"]),
    ]


def test_pipe_table_needs_its_separator_line() -> None:
    assert pipe_tables("a | b\nc | d\n") == []
    assert pipe_tables("| a | b |\n|---|:-:|\n| 1 | 2 |\n") == [[["a", "b"], ["1", "2"]]]


def test_a_document_without_a_table_or_function_is_not_counted_as_extracted() -> None:
    doc = parse_operator_doc("# Pad\n\n本目录仅包含接口。\n", "pad/README.md")
    assert not doc.params and not extracted(doc)


def _finder(files: dict[str, str]) -> DocFinder:
    def list_dir(rel: str) -> list[str]:
        return sorted({Path(p).name for p in files if str(Path(p).parent) == rel})

    return DocFinder(list_dir, files.get)


def test_docs_are_found_in_the_operator_folder_never_at_the_root() -> None:
    files = {
        "README.md": "# repo\n\n- 算子功能：不是这个。\n",
        "math/soft_shrink/README.md": ZH_README,
        "math/soft_shrink/docs/aclnnSoftShrink.md": "# aclnnSoftShrink\n\n$$ z = 1 $$\n",
        "math/soft_shrink/op_kernel/soft_shrink.cpp": "",
        "math/bare/op_kernel/bare.cpp": "",
    }
    finder = _finder(files)
    doc = finder.for_entry("math/soft_shrink/op_kernel/soft_shrink.cpp", "math/soft_shrink")
    assert doc is not None and doc.path == "math/soft_shrink/README.md"
    assert finder.for_entry("math/bare/op_kernel/bare.cpp", "math/bare") is None
    assert _finder({"README.md": ZH_README, "k.cpp": ""}).for_entry("k.cpp", None) is None


def _unit(doc_text: str | None, op_def: OpDef | None) -> KernelUnit:
    doc = parse_operator_doc(doc_text, "math/soft_shrink/README.md") if doc_text else None
    return KernelUnit(
        unit_id="u",
        source="s",
        origin_url="",
        commit="",
        path="math/soft_shrink/op_kernel/soft_shrink.cpp",
        layout="msopgen",
        op_name="soft_shrink",
        kernel_name="soft_shrink",
        params=[Param("x", "GM_ADDR"), Param("y", "GM_ADDR")],
        op_def=op_def,
        doc=doc,
    )


OPDEF = OpDef(
    "SoftShrink",
    inputs=[TensorSpec("x", dtypes=["DT_FLOAT16", "DT_FLOAT"])],
    outputs=[TensorSpec("y", dtypes=["DT_FLOAT16", "DT_FLOAT"])],
    attrs=[Param("lambd", "Float")],
    socs=["ascend910b"],
)


def test_instruction_states_function_formula_tensors_constraints_and_hardware() -> None:
    text, semantics = instruction_and_semantics(_unit(ZH_README, OPDEF))
    assert semantics == "documented"
    assert 'What to compute: "对输入张量逐元素做软收缩。"' in text  # Chinese prose quoted, not invented
    assert "quoted as written" in text
    assert "$$ y_i = \\begin{cases}" in text
    assert "Inputs:\n- `x`: float16, float32; format ND; shape/rank 1-8" in text  # OpDef dtypes
    assert "Attributes:\n- `lambd` (optional): float32" in text
    assert "Supported hardware: Atlas A2 training series/Atlas A2 inference series." in text
    assert "Entry point: `__global__ __aicore__ void soft_shrink(GM_ADDR x, GM_ADDR y)`." in text
    assert "Target SoCs: ascend910b." in text
    assert "__aicore__ void soft_shrink(" in text and "{" not in text.split("Formula:")[0]


def test_undocumented_unit_is_marked() -> None:
    text, semantics = instruction_and_semantics(_unit(None, OPDEF))
    assert semantics == "undocumented"
    assert "No documentation of this operator was found" in text
    assert "- input `x`: DT_FLOAT16, DT_FLOAT" in text


def test_a_document_naming_tensors_differently_is_mapped_by_position_and_dtype() -> None:
    renamed = OpDef(
        "SoftShrink", [TensorSpec("self", dtypes=["DT_FLOAT"])], [TensorSpec("out", dtypes=["DT_FLOAT"])]
    )
    unit = _unit(ZH_README, renamed)
    assert check_statement(unit.doc, renamed) == []  # type: ignore[arg-type]
    stated = statement(unit)
    assert stated.semantics == "documented"
    assert "Inputs:\n- `self`: float32" in "\n".join(stated.lines)  # the OpDef's name and dtype
    assert "`x` is `self`" in "\n".join(stated.lines) and "`y` is `out`" in "\n".join(stated.lines)
    # a dtype the OpDef does not register is dropped; the OpDef's is stated, the semantics stay
    int8 = OpDef("SoftShrink", [TensorSpec("x", dtypes=["DT_INT8"])], [TensorSpec("y", dtypes=["DT_FLOAT"])])
    text = build_instruction(_unit(ZH_README, int8))
    assert "What to compute" in text and "- `x`: int8" in text and "float16" not in text.split("Outputs:")[0]


def test_a_document_of_another_operator_is_rejected() -> None:
    # position 0 is an int64 index where the document has a float tensor, and no name matches
    other = OpDef(
        "Gather", [TensorSpec("indices", dtypes=["DT_INT64"])], [TensorSpec("idx_out", dtypes=["DT_INT64"])]
    )
    unit = _unit(ZH_README, other)
    assert [d.check for d in check_statement(unit.doc, other)] == ["statement.tensor_names"]  # type: ignore[arg-type]
    assert statement(unit).semantics == "rejected"
    assert "No documentation" in build_instruction(unit)


def test_one_name_per_attribute() -> None:
    doc_attr = re.sub(r"lambd(?!a)", "negative_slope", ZH_README)  # not the formula's \\lambda
    opdef = OpDef("SoftShrink", OPDEF.inputs, OPDEF.outputs, attrs=[Param("negativeSlope", "Float")])
    text = build_instruction(_unit(doc_attr, opdef))
    assert "`negativeSlope`" in text and "negative_slope" not in text


def test_english_document_is_stated_without_quoting() -> None:
    unit = _unit(None, None)
    unit.doc = parse_operator_doc(EN_API_DESC, "tasks/ClampMin/api_desc.md")
    stated = statement(unit)
    assert stated.semantics == "documented" and not stated.quoted
    assert "What to compute: Replaces every element of x below min_value by min_value." in stated.lines


def test_a_function_label_keeps_the_lines_that_continue_its_list_item() -> None:
    english = "# Op\n\n## Function\n\n- Function: multiplies two matrices,\n  one block per core.\n- Formula:\n\n  $$ C = A B $$\n"
    assert (
        parse_operator_doc(english, "op/README.md").function == "multiplies two matrices, one block per core."
    )
    chinese = "# Op\n\n- 算子功能：计算\n  两个张量之和。\n- 计算公式：\n\n  $$ y = a + b $$\n"
    assert parse_operator_doc(chinese, "op/README.md").function == "计算两个张量之和。"
