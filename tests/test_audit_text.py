"""Code inside text: an Alpaca-style jsonl (instruction/input/output) whose outputs carry planted
benchmark answers (exact, renamed, reformatted) between reasoning paragraphs, in fenced blocks
with and without a language tag and between <kernel_impl> tags. `curate audit --code-from auto`
finds every planted answer, with its row id and block index, and nothing in the clean rows."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from curate.code_blocks import extract_blocks
from curate.sources import load_benchmark
from dedup.normalize import kept_identifiers
from tests.conftest import EXAMPLES, run_curate
from tests.test_dedup_helpers import unrelated_kernel

PLANTED = json.loads((EXAMPLES / "benchmark" / "PLANTED.json").read_text())
TASKS = [c["task"] for c in PLANTED if c["kind"] in ("exact", "near", "renamed")][:3] + [
    c["task"] for c in PLANTED if c["kind"] == "clean"
][:1]
REASONING = (
    "Let me think about the tiling first. Each core takes an equal share of the elements, and the "
    "unified buffer holds two tiles per queue so that copy-in overlaps compute."
)


def answer_of(task: str) -> str:
    items = load_benchmark(str(EXAMPLES / "benchmark")).items
    (item,) = [it for it in items if it.path.endswith(task) or task.endswith(it.task_name)]
    return item.answers[0]


def renamed(code: str) -> str:
    keep = kept_identifiers()
    return re.sub(
        r"\b[a-z][A-Za-z0-9_]*\b",
        lambda m: m.group(0) if m.group(0) in keep else m.group(0) + "Renamed",
        code,
    )


def reformatted(code: str) -> str:
    code = re.sub(r"(?m)^[ \t]+", "\t\t", code)  # other indentation
    return code.replace(", ", " ,  ").replace(") {", ")\n{")  # other spacing and brace style


WRAPS = {
    "fenced-cpp": lambda code: f"```cpp\n{code}\n```",
    "fenced-bare": lambda code: f"```\n{code}\n```",
    "tags": lambda code: f"<kernel_impl>\n{code}\n</kernel_impl>",
}


@pytest.fixture(scope="module")
def alpaca(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, int, str]]]:
    """The jsonl and what is planted where: (row id, block index, task)."""
    rows, planted = [], []
    transforms = {"exact": lambda c: c, "renamed": renamed, "reformatted": reformatted}
    leaky = [t for t in TASKS if not any(c["task"] == t and c["kind"] == "clean" for c in PLANTED)]
    for t, task in enumerate(leaky):
        for k, (kind, transform) in enumerate(transforms.items()):
            wrap = list(WRAPS.values())[(t + k) % len(WRAPS)]
            helper = "```python\nimport torch\nprint(torch.ones(3) + 1)\n```"
            blocks = [helper] if k == 1 else []  # a block before the kernel: the index counts it
            output = "\n\n".join([REASONING, *blocks, wrap(transform(answer_of(task))), REASONING])
            row_id = str(len(rows))
            planted.append((row_id, len(blocks), task.rsplit("/", 1)[1]))
            rows.append(
                {
                    "instruction": f"Write the AscendC kernel for {task} ({kind}).",
                    "input": "",
                    "output": output,
                }
            )
    for _ in range(2):  # clean rows: reasoning and an unrelated kernel
        output = f"{REASONING}\n\n```cpp\n{unrelated_kernel()}\n```\n\n{REASONING}"
        rows.append({"instruction": "Write a sum of squares kernel.", "input": "", "output": output})
    rows.append({"instruction": "Explain double buffering.", "input": "", "output": REASONING})  # no code
    path = tmp_path_factory.mktemp("alpaca") / "alpaca.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path, planted


def audit_text(alpaca_path: Path, reports: Path, *extra: str) -> dict:
    done = run_curate(
        "audit",
        str(alpaca_path),
        str(EXAMPLES / "benchmark"),
        "--train-code-column",
        "output",
        "--code-from",
        "auto",
        "--abstract-identifiers",
        "--report-dir",
        str(reports),
        *extra,
    )
    assert done.returncode == 1, done.stderr
    return json.loads((reports / "leakage.json").read_text())


def test_every_planted_answer_is_found_with_row_and_block(alpaca, tmp_path: Path) -> None:
    path, planted = alpaca
    report = audit_text(path, tmp_path / "r", "--shard-rows", "4")
    found = {(lk["row_id"], lk["block"], lk["task_name"]) for lk in report["leaks"]}
    assert set(planted) <= found  # recall 1.0
    assert {row for row, _, _ in found} == {row for row, _, _ in planted}  # clean rows stay clean
    assert len(planted) == 9


def test_extract_modes() -> None:
    text = "intro\n```cpp\nint a;\n```\nmid <kernel_impl>int b;</kernel_impl> end\n~~~\nint c;\n~~~\n"
    assert extract_blocks(text, "fenced") == ["int a;", "int c;"]
    assert extract_blocks(text, "tags") == ["int b;"]
    assert extract_blocks(text, "auto") == ["int a;", "int b;", "int c;"]
    assert extract_blocks(text, "text") == [text]
    assert extract_blocks("no code at all", "auto") == ["no code at all"]
    assert extract_blocks("<code>\n```\nint d;\n```\n</code>", "auto") == ["int d;"]
    assert extract_blocks("```cpp\nint e;", "fenced") == ["int e;"]  # unclosed: to the end


def test_bad_mode_is_a_usage_error(alpaca, tmp_path: Path) -> None:
    path, _ = alpaca
    done = run_curate("audit", str(path), str(EXAMPLES / "benchmark"), "--code-from", "html")
    assert done.returncode == 2
    assert "--code-from" in done.stderr


def test_a_missing_column_names_audits_own_option(alpaca, tmp_path: Path) -> None:
    """The column options of audit are per side; its error names the one to pass."""
    path, _ = alpaca
    done = run_curate(
        "audit",
        str(path),
        str(EXAMPLES / "benchmark"),
        "--train-code-column",
        "outptu",
        "--report-dir",
        str(tmp_path / "r"),
    )
    assert done.returncode == 2
    assert "TRAIN:" in done.stderr and "no column 'outptu'" in done.stderr
    assert "pass --train-code-column" in done.stderr and "Traceback" not in done.stderr


def test_ingest_benchmark_table_with_code_from(tmp_path: Path) -> None:
    table = tmp_path / "bench.jsonl"
    answer = answer_of(TASKS[0])
    table.write_text(
        json.dumps({"id": "AddCustom", "solution": f"Reasoning.\n```cpp\n{answer}\n```\n"}) + "\n"
    )
    ws = tmp_path / "ws"
    done = run_curate(
        "ingest",
        str(table),
        "-w",
        str(ws),
        "--benchmark",
        "--code-column",
        "solution",
        "--id-column",
        "id",
        "--code-from",
        "fenced",
    )
    assert done.returncode == 0, done.stderr
    from schemas import BenchmarkItem, read_records

    (item,) = read_records(ws / "benchmark.parquet", BenchmarkItem)
    assert item.answers == [answer] and item.answer_paths == ["AddCustom#block0"]
