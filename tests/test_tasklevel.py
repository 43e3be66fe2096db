"""Task-level decontamination: a training document that SOLVES a benchmark task with other code.

Fixtures are small PyTorch references and AscendC-style kernels written for these tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curate.tasklevel import JudgeSettings, dedup_task_leaks, judge_matches, task_index_for
from dedup.tasks import candidate_facts, match_document, task_index
from parsers.submission import read_submission
from parsers.torchref import read_reference
from schemas import BenchmarkItem, Decision, KernelUnit
from tests.servers.openai_server import OpenAIServer, Reply
from tests.test_dedup_helpers import run_cli

CONV_MIN_TANH = '''import torch
import torch.nn as nn

class Model(nn.Module):
    """A convolution, a minimum over channels, then two tanh."""
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        x = self.conv(x)
        x = torch.min(x, dim=1, keepdim=True)[0]  # minimum over channels
        x = torch.tanh(x)
        return torch.tanh(x)

batch_size = 12
in_channels = 5
out_channels = 24
height = width = 40
kernel_size = 3

def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width)]

def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
'''

GELU = """import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x)

def get_inputs():
    return [torch.rand(7, 333, dtype=torch.float16)]

def get_init_inputs():
    return []
"""

SOFTMAX = GELU.replace("F.gelu(x)", "torch.softmax(x, dim=-1)")

# A fused solution whose names say nothing about the task: only what it states and does.
NEUTRAL_FUSED = """
// Direct convolution over a 3x3 window, then the minimum over output channels, then tanh twice.
class OpZuluKernel {
  __aicore__ inline void ConvWindow() { AscendC::Mul(acc, win, wgt, n); AscendC::Add(out, out, acc, n); }
  __aicore__ inline void ChannelMin() { AscendC::Min(best, best, out, n); }
  __aicore__ inline void TanhTwice() { Tanh(y, best, n); Tanh(y, y, n); }
};
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR w, GM_ADDR y) { OpZuluKernel k; }
"""

# Only tanh: must never be claimed by the fused task.
TANH_ONLY = """
extern "C" __global__ __aicore__ void my_activation(GM_ADDR x, GM_ADDR y) {
  // y = tanh(x), tiled over the cores
  Tanh(yLocal, xLocal, tileLength);
}
"""

# Named after the gelu task; its body shows no gelu word (an approximation by Exp and Muls).
GELU_NAMED = """
extern "C" __global__ __aicore__ void gelu_custom(GM_ADDR x, GM_ADDR y) {
  AscendC::Muls(t, xLocal, 1.702f, n); AscendC::Exp(t, t, n); AscendC::Div(yLocal, xLocal, t, n);
}
"""

SUBMISSION = '''project_json_src = """
[{"op": "OpZuluCustom", "language": "cpp",
  "input_desc": [{"name": "x", "param_type": "required"}, {"name": "weight", "param_type": "required"}],
  "output_desc": [{"name": "y", "param_type": "required"}],
  "attr": [{"name": "kernel_h", "type": "int"}]}]
"""
host_tiling_src = """
BEGIN_TILING_DATA_DEF(OpZuluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, convOutChannels);
  TILING_DATA_FIELD_DEF(uint32_t, minReduceLength);
END_TILING_DATA_DEF;
"""
host_operator_src = """
// host: tiling of the conv output rows
auto s = context->GetInputShape(0); context->SetBlockDim(8);
"""
kernel_src = """
// per window: conv accumulate, min over channels, tanh, tanh
extern "C" __global__ __aicore__ void op_zulu_custom(GM_ADDR x, GM_ADDR w, GM_ADDR y) {
  Mmad(acc, win, wgt, p); ReduceMin(best, acc, work, c); Tanh(y, best, n); Tanh(y, y, n);
}
"""
python_bind_src = """
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("op_zulu_custom", &run, "conv then channel minimum then tanh"); }
"""
'''


def _items(tasks: dict[str, str]) -> list[BenchmarkItem]:
    return [
        BenchmarkItem(
            item_id=name,
            benchmark="mini",
            task_name=name,
            op_name=name,
            level=0,
            category="x",
            path=f"{name}.py",
            reference=text,
        )
        for name, text in tasks.items()
    ]


@pytest.fixture
def index():
    built = task_index_for(_items({"conv2d_min_tanh_tanh": CONV_MIN_TANH, "gelu": GELU, "softmax": SOFTMAX}))
    assert built is not None
    return built


def test_reference_signature_reads_forward_in_order_with_reductions_and_inputs() -> None:
    sig = read_reference("conv2d_min_tanh_tanh", CONV_MIN_TANH)
    forward = sig.ops[-4:]  # the name's ops come first, then forward's
    assert forward == ["conv", "min", "tanh", "tanh"]
    assert sig.reductions == ["min(dim=1)"]
    assert sig.init_params == ["in_channels", "out_channels", "kernel_size"]
    assert sig.input_shapes == [["batch_size", "in_channels", "height", "width"]]
    assert sig.dims == [2] and 24 in sig.constants and "minimum" in sig.words
    assert read_reference("gelu", GELU).input_dtypes == ["float16"]


def test_submission_is_one_candidate_with_its_op_definition() -> None:
    sub = read_submission(SUBMISSION)
    assert sub is not None
    assert sub.op_name == "OpZuluCustom"
    assert (sub.inputs, sub.outputs, sub.attrs) == (["x", "weight"], ["y"], ["kernel_h"])
    code = sub.as_code()
    assert "// kernel_src" in code and "// python_bind_src" in code and "ReduceMin" in code
    assert read_submission("kernel_src = 'x'\n") is None  # no op definition: not a submission
    assert read_submission(CONV_MIN_TANH) is None


def test_semantics_places_a_renamed_fused_solution_on_its_task(index) -> None:
    match, facts = match_document(NEUTRAL_FUSED, index)
    assert match is not None, "semantics layer missing: a renamed solution escapes"
    assert index.signatures[match.item].task == "conv2d_min_tanh_tanh"
    assert (match.layer, match.level) == ("semantics", "fused")
    assert {"conv", "min", "tanh"} <= set(facts.ops)


def test_submission_with_neutral_names_lands_on_its_task(index) -> None:
    sub = read_submission(SUBMISSION)
    assert sub is not None
    match, _ = match_document(sub.as_code(), index)
    assert match is not None and index.signatures[match.item].task == "conv2d_min_tanh_tanh"
    facts, _ = candidate_facts(sub.as_code())  # what the report shows beside the task
    assert "convOutChannels" in facts.tiling_fields and facts.attrs == ["kernel_h"]


def test_identity_claims_a_kernel_named_after_a_single_op_task(index) -> None:
    match, _ = match_document(GELU_NAMED, index)
    assert match is not None, "identity layer missing: the name is the only evidence here"
    assert (index.signatures[match.item].task, match.layer, match.level) == ("gelu", "identity", "op")
    assert match.score < 1.0  # an op-level match ranks below a fused one


def test_fused_task_is_never_claimed_by_a_kernel_that_does_part_of_it(index) -> None:
    match, _ = match_document(TANH_ONLY, index)
    assert match is None or index.signatures[match.item].task != "conv2d_min_tanh_tanh"
    stub = 'extern "C" __global__ __aicore__ void conv2d_min_tanh_tanh_custom(GM_ADDR x) { Tanh(y, x, n); }'
    match, _ = match_document(stub, index)
    assert match is None or index.signatures[match.item].task != "conv2d_min_tanh_tanh"


def _write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_audit_takes_a_pytorch_folder_and_counts_task_matches(tmp_path, monkeypatch, capsys) -> None:
    bench = _write(tmp_path / "reference" / "fuse", {"conv2d_min_tanh_tanh.py": CONV_MIN_TANH})
    _write(tmp_path / "reference" / "activation", {"gelu.py": GELU, "softmax.py": SOFTMAX})
    train = _write(tmp_path / "train", {"solution_0001.py": SUBMISSION, "other.cpp": TANH_ONLY})
    reports = tmp_path / "r"
    status, out, err = run_cli(monkeypatch, capsys, "audit", train, bench.parent, "--report-dir", reports)
    assert status == 1, (out, err)
    assert "1 solve a test task (1 fused" in out
    report = json.loads((reports / "leakage.json").read_text())
    assert report["leaks"] == [] and report["counts"]["task_matches"] == 1
    match = report["task_matches"][0]
    assert match["unit_path"] == "solution_0001.py" and match["task_name"] == "conv2d_min_tanh_tanh"
    assert match["candidate"]["inputs"] == ["x", "weight"] and match["task"]["required_ops"]
    # What the kernel computes, not what its host code calls (GetInputShape, SetBlockDim).
    assert match["candidate"]["apis"] == ["Mmad", "ReduceMin", "Tanh"]
    assert "Task-level matches" in (reports / "leakage.md").read_text()


def test_audit_reads_a_run_folder_of_saved_answers(tmp_path, monkeypatch, capsys) -> None:
    """MultiKernelBench's own run output: one `<op>.txt` per task, the model's reply with its code
    fenced, beside `<op>_cot.txt` (the reasoning). A reply's file stem names its task."""
    bench = _write(tmp_path / "reference" / "fuse", {"conv2d_min_tanh_tanh.py": CONV_MIN_TANH})
    _write(tmp_path / "reference" / "activation", {"gelu.py": GELU, "softmax.py": SOFTMAX})
    unnamed_gelu = GELU_NAMED.replace("gelu_custom", "op_kilo")
    answers = {
        "conv2d_min_tanh_tanh.txt": f"Here is the implementation.\n\n```python\n{SUBMISSION}```\n",
        "gelu.txt": f"The kernel approximates the activation.\n```cpp\n{unnamed_gelu}```\nDone.\n",
        "gelu_cot.txt": "First I read the reference; it applies one activation elementwise.",
        "README.md": "# run 0\n```bash\npython generate_and_write.py\n```\n",
    }
    train = _write(tmp_path / "run0", answers)
    reports = tmp_path / "r"
    status, out, err = run_cli(monkeypatch, capsys, "audit", train, bench.parent, "--report-dir", reports)
    assert status == 1, (out, err)
    assert "of 2 training documents" in out and "2 solve a test task (1 fused, 1 single-op" in out
    placed = {m["unit_path"]: m for m in json.loads((reports / "leakage.json").read_text())["task_matches"]}
    assert placed["gelu.txt"]["task_name"] == "gelu" and placed["gelu.txt"]["layer"] == "identity"
    assert placed["conv2d_min_tanh_tanh.txt"]["task_name"] == "conv2d_min_tanh_tanh"
    assert placed["conv2d_min_tanh_tanh.txt"]["candidate"]["inputs"] == ["x", "weight"]


def test_audit_clean_training_side_against_task_texts_exits_0(tmp_path, monkeypatch, capsys) -> None:
    table = tmp_path / "tasks.jsonl"
    rows = [
        {"id": "conv2d_min_tanh_tanh", "text": CONV_MIN_TANH},
        {"id": "softmax", "text": "softmax over rows"},
    ]
    table.write_text("".join(json.dumps(r) + "\n" for r in rows))
    train = _write(tmp_path / "train", {"other.cpp": TANH_ONLY})
    args = ["--test-text-column", "text", "--test-id-column", "id", "--report-dir", tmp_path / "r"]
    status, out, _ = run_cli(monkeypatch, capsys, "audit", train, table, *args)
    assert status == 0 and "0 solve a test task" in out
    train2 = _write(tmp_path / "train2", {"fused.cpp": NEUTRAL_FUSED})
    status, out, _ = run_cli(monkeypatch, capsys, "audit", train2, table, *args)
    assert status == 1 and "1 solve a test task" in out


def _unit(path: str, code: str) -> KernelUnit:
    return KernelUnit(
        unit_id=path,
        source="t",
        origin_url="",
        commit="",
        path=path,
        layout="standalone",
        op_name="",
        kernel_name="",
        code=code,
    )


def test_judge_verdicts_are_cached_per_pair(tmp_path, index) -> None:
    items = _items({"conv2d_min_tanh_tanh": CONV_MIN_TANH, "gelu": GELU, "softmax": SOFTMAX})
    units = [_unit("a.cpp", NEUTRAL_FUSED), _unit("b.cpp", GELU_NAMED)]
    from dedup.tasks import match_units

    with OpenAIServer() as server:
        server.script = lambda request: Reply.ok("NO" if "gelu_custom" in request.last_user_text else "YES")
        settings = JudgeSettings(server.url, "judge", tmp_path / "judge.sqlite")
        first = match_units(units, index)
        counts = judge_matches(first, units, items, settings)
        assert counts["judge_requests"] == 2 and server.chat_count() == 2
        assert [m.judge for m in first] == ["yes", "no"]
        again = match_units(units, index)
        counts = judge_matches(again, units, items, settings)
        assert server.chat_count() == 2, "a re-run asked the endpoint again"
        assert counts["judge_cached"] == 2 and [m.judge for m in again] == ["yes", "no"]


def test_dedup_task_leaks_drop_marks_the_solution_leak(index) -> None:
    items = _items({"conv2d_min_tanh_tanh": CONV_MIN_TANH, "gelu": GELU, "softmax": SOFTMAX})
    units = [_unit("a.cpp", NEUTRAL_FUSED), _unit("c.cpp", TANH_ONLY)]
    for policy, expected in (("flag", "keep"), ("drop", "leak")):
        decisions = [Decision(u.unit_id, "keep", u.unit_id) for u in units]
        report: dict = {"counts": {}}
        section = dedup_task_leaks(units, items, decisions, policy, report)
        assert decisions[0].decision == expected and decisions[1].decision == "keep"
        assert report["task_matches"][0]["unit_path"] == "a.cpp" and "Task-level" in section
    assert decisions[0].method == "task-semantics"


def test_task_index_without_tasks_is_none() -> None:
    assert task_index_for(_items({"x": ""})) is None
    assert task_index([]).signatures == []


def test_ingested_pytorch_benchmark_workspace_is_an_audit_test_side(tmp_path, monkeypatch, capsys) -> None:
    bench = _write(tmp_path / "reference" / "fuse", {"conv2d_min_tanh_tanh.py": CONV_MIN_TANH}).parent
    ws = tmp_path / "ws"
    status, out, err = run_cli(monkeypatch, capsys, "ingest", bench, "--benchmark", "--workspace", ws)
    assert status == 0, err
    train = _write(tmp_path / "train", {"fused.cpp": NEUTRAL_FUSED})
    status, out, err = run_cli(monkeypatch, capsys, "audit", train, ws, "--report-dir", tmp_path / "r")
    assert status == 1 and "1 solve a test task (1 fused" in out, (out, err)
