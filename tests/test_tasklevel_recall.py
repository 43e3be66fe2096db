"""Task matching of renamed solutions (issue 26, neutral-name recall): names a document only
calls, values a task does not state, ops written out by hand, one word table for both sides, a
row's instruction beside its code, a weak-op task claimed on its numbers. Each case fails when
its feature is taken out. Fixtures are written for these tests."""

from __future__ import annotations

import json

from curate.sources import iter_corpus, table_units
from dedup.tasks import (
    JUDGE_CANDIDATES,
    candidate_facts,
    match_document,
    match_units,
    semantic_score,
    semantically_claimable,
    unit_prose,
)
from schemas.taskops import TORCH_CALLABLES, WORD_OPS, torch_ops
from tests.test_tasklevel import CONV_MIN_TANH, GELU, NEUTRAL_FUSED
from tests.test_tasklevel_scoring import CUMSUM, CUMSUM_REVERSE, _conv_kernel, _index, _reference, _task

GROUP_NORM = GELU.replace("F.gelu(x)", "F.group_norm(x, 4)")
CONV_GROUP_NORM = _reference("        x = F.group_norm(x, 4)\n        x = torch.tanh(x)")


def test_a_device_function_named_after_a_single_op_task_does_not_claim_it_in_a_fused_kernel() -> None:
    index = _index({"conv2d_min_tanh_tanh": CONV_MIN_TANH, "gelu": GELU})
    helper = "__aicore__ inline void Gelu(LocalTensor<float> y) { Tanh(y, y, n); }\n"
    match, _ = match_document(helper + NEUTRAL_FUSED, index)
    assert _task(index, match) != "gelu", "a helper of a fused kernel claimed the single-op task"
    alone = helper + 'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x) { Gelu(y); }'
    match, _ = match_document(alone, index)
    assert _task(index, match) == "gelu" and match.layer == "identity"  # doing nothing more: still its name


def test_a_library_op_the_binding_launches_does_not_claim_its_single_op_task() -> None:
    index = _index({"group_norm": GROUP_NORM, "conv2d_group_norm_tanh": CONV_GROUP_NORM})
    binding = "at::Tensor run(at::Tensor x) { EXEC_NPU_CMD(aclnnGroupNorm, x, y); return y; }\n"
    doc = _conv_kernel("  Tanh(y, acc, n);  // tanh after the group norm") + binding
    match, _ = match_document(doc, index)
    assert _task(index, match) != "group_norm", "a launched library op named the task of the whole row"


def test_values_a_task_does_not_state_count_against_it() -> None:
    # Siblings with the same ops and words; the second states every number the first does and more.
    short = _reference("        x = torch.tanh(x)", "\nbatch_size = 10\n")
    long = _reference("        x = torch.tanh(x)", "\nbatch_size = 10\ndepth = 77\nwidth = 555\n")
    index = _index({"conv2d_tanh_alpha": short, "conv2d_tanh_bravo": long})
    facts, words = candidate_facts(_conv_kernel("  Tanh(y, acc, n);  // N=10 Cin=6 Cout=12 K=3 D=77 W=555"))
    a, b = (semantic_score(index, t, facts, words, frozenset(facts.values)) for t in (0, 1))
    assert b.constants > a.constants and b.score > a.score, (
        "a subset of the row's values scored as all of them"
    )


def test_torch_callables_are_read_through_the_one_word_table() -> None:
    # One table says what a word shows; a torch callable names one of its words, never ops of its own.
    assert set(TORCH_CALLABLES.values()) <= WORD_OPS.keys()
    assert torch_ops("conv3d") == WORD_OPS["conv"] and torch_ops("addmm") == WORD_OPS["matmul"]
    assert torch_ops("view") == ()


LOG_SOFTMAX = GELU.replace("F.gelu(x)", "torch.log_softmax(x, dim=1)")
CONV_AVG_POOL_MAX = _reference("        x = F.avg_pool2d(x, 2)\n        x = torch.max(x, dim=1)[0]")


def test_a_log_softmax_written_out_by_hand_is_placed_on_its_task() -> None:
    index = _index({"log_softmax": LOG_SOFTMAX, "gelu": GELU})
    doc = """
// a softmax in log space, row by row: subtract the maximum, exponentiate, reduce, take the log
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {
  ReduceMax(m, row, w, n); Adds(t, row, -m, n); Exp(e, t, n); ReduceSum(s, e, w, n); Ln(l, s, 1);
  Adds(y, t, -l, n);
}"""
    match, facts = match_document(doc, index)
    assert "log_softmax" in facts.inferred
    assert _task(index, match) == "log_softmax", "Exp, ReduceSum and Log not read as a log-softmax"


def test_an_op_written_out_by_hand_is_not_one_of_a_fused_tasks_strong_ops() -> None:
    # A conv with a group norm's mean and a max: the mean is not an average pool for a fused claim.
    index = _index({"conv2d_avg_pool_max": CONV_AVG_POOL_MAX})
    doc = _conv_kernel("  ReduceMean(mu, acc, n); Sub(acc, acc, mu, n); ReduceMax(y, acc, w, n);")
    match, facts = match_document(doc, index)
    assert "avg_pool" in facts.inferred  # read as one, so that a single-op task could use it
    assert not semantically_claimable(index.required[0], facts.inferred), "a mean made a fused claim"
    assert match is None


def test_a_rows_instruction_travels_beside_its_code_and_tells_siblings_apart() -> None:
    rows = [
        {
            "instruction": "Write an AscendC kernel: the cumulative sum in reverse, last element first.",
            "output": 'Tiles rows.\n```cpp\nextern "C" __global__ __aicore__ void scan(GM_ADDR x) '
            "{ CumSum(acc, row, dim); }\n```",
        },
        {"output": '```cpp\nextern "C" __global__ __aicore__ void k(GM_ADDR x) { Relu(y, x, n); }\n```'},
    ]
    units = table_units(rows, ["a", "b"], "train", "output", "auto", set(), 0)
    assert unit_prose(units[0]).startswith("Write an AscendC kernel") and unit_prose(units[1]) == ""
    assert "CumSum" in units[0].code and "reverse" not in units[0].code  # the prose is not code
    index = _index({"cumsum": CUMSUM, "cumsum_reverse": CUMSUM_REVERSE})
    # One word ("reverse") sets these siblings less than RUNNER_UP_MARGIN apart: semantics
    # places neither alone, and a judge is asked about both, the better scoring first.
    index.judge_candidates = JUDGE_CANDIDATES
    code = units[0].code
    alone, _ = match_document(code, index, threshold=0.5)  # two tasks: word weights are small
    told, _ = match_document(code, index, threshold=0.5, prose=unit_prose(units[0]))
    assert alone is not None and told is not None and told.layer == "candidate"
    assert _task(index, alone) == "cumsum"
    assert _task(index, told) == "cumsum_reverse", "the row's instruction was not read as evidence"
    # the prose never supplies the ops a task requires: a code that shows none claims nothing
    empty, _ = match_document(
        'extern "C" __global__ __aicore__ void k(GM_ADDR x) { Relu(y, x, n); }',
        index,
        prose="cumulative sum in reverse",
    )
    assert _task(index, empty) == ""


MATMUL_MIN_SHIFT = """import torch
class Model(torch.nn.Module):
    def __init__(self, shift):
        super().__init__()
        self.shift = shift

    def forward(self, a, b):
        return torch.min(torch.matmul(a, b), dim=1)[0] - self.shift

M = 733
K = 517
N = 389

def get_inputs():
    return [torch.rand(M, K), torch.rand(K, N)]

def get_init_inputs():
    return [0.37]
"""


def test_a_task_of_weak_ops_is_claimed_by_a_row_that_states_its_numbers() -> None:
    index = _index({"matmul_min_subtract": MATMUL_MIN_SHIFT, "gelu": GELU})
    body = """
// matmul of a and b, then the minimum of each row, then subtract the shift
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR a, GM_ADDR b, GM_ADDR y) {
  Mmad(c, a, b, p); MinRows(m, c, n); Adds(y, m, -shift, n);
}"""
    plain, _ = match_document(body, index)
    assert plain is None  # matmul and the word min alone: every matmul kernel's tiling says min
    stated, _ = match_document(body + "\n// M=733 K=517 N=389 shift=0.37", index)
    assert _task(index, stated) == "matmul_min_subtract", "the task's own numbers were not read as a claim"
    # An AscendC reduction that takes the minimum after the matmul does the step: claimed so too.
    called, _ = match_document(body.replace("MinRows(m, c, n);", "ReduceMin(m, c, w, n);"), index)
    assert _task(index, called) == "matmul_min_subtract"


def test_an_audited_table_carries_each_rows_instruction(tmp_path) -> None:
    table = tmp_path / "rows.jsonl"
    row = {
        "prompt": "Fuse a conv2d with two tanh.",
        "output": "```cpp\n__global__ __aicore__ void k() {}\n```",
    }
    table.write_text(json.dumps(row) + "\n")
    [(unit,)] = iter_corpus(str(table), code_column="output", code_from="auto")
    assert (
        unit_prose(unit) == "Fuse a conv2d with two tanh."
        and unit.doc is not None
        and unit.doc.language == "en"
    )


def test_a_replys_own_words_around_its_code_travel_beside_it(tmp_path) -> None:
    # A model reply in one column: its analysis and note state the task as an instruction would.
    table = tmp_path / "rows.jsonl"
    reply = (
        "Fuse a conv2d with two tanh, batch 10.\n```cpp\n__global__ __aicore__ void k() {}\n```\nNote: fp32."
    )
    table.write_text(json.dumps({"prompt": "Write the kernel.", "output": reply}) + "\n")
    [(unit,)] = iter_corpus(str(table), code_column="output", code_from="fenced")
    assert unit_prose(unit) == "Write the kernel.\nFuse a conv2d with two tanh, batch 10. Note: fp32."
    assert "Fuse" not in unit.code
    # read whole (no --code-from), the column is the code and no prose of its own
    [(unit,)] = iter_corpus(str(table), code_column="output")
    assert unit_prose(unit) == "Write the kernel."


def test_match_units_reads_a_rows_instruction_as_the_audit_does() -> None:
    short = _reference("        x = torch.tanh(x)", "\nbatch_size = 10\n")
    long = _reference("        x = torch.tanh(x)", "\nbatch_size = 10\ndepth = 77\nwidth = 555\n")
    index = _index({"conv2d_tanh_alpha": short, "conv2d_tanh_bravo": long})
    output = "```cpp\n" + _conv_kernel("  Tanh(y, acc, n);") + "\n```"
    row = {"instruction": "A conv2d then tanh; batch 10, depth 77, width 555.", "output": output}
    told = table_units([row], ["a"], "train", "output", "auto", set(), 0)
    untold = table_units([{"output": output}], ["a"], "train", "output", "auto", set(), 0)
    assert [_task(index, m) for m in match_units(told, index)] == ["conv2d_tanh_bravo"]
    assert match_units(untold, index) == []  # the code alone does not tell the siblings apart


def test_a_row_of_another_rank_does_not_claim_a_weak_task_on_its_numbers() -> None:
    # Before, the claim on stated numbers skipped the rank check every other claim makes: a 2-D
    # transposed convolution that summed its rows was placed on a 3-D task sharing three numbers.
    reference = (
        _reference("        x = torch.sum(x, dim=1, keepdim=True)")
        .replace("nn.Conv2d", "nn.ConvTranspose3d")
        .replace("def get_inputs", "D = 733\nH = 517\nW = 389\n\ndef get_inputs")
    )
    index = _index({"conv_transpose3d_sum": reference, "gelu": GELU})
    body = """
// deconvolution (transposed convolution), then the sum over channels; D=733 H=517 W=389
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR w, GM_ADDR y) {
  ConvWindow(acc, x, w); ReduceSum(y, acc, work, n);
}"""
    assert _task(index, match_document('TORCH_CHECK(x.dim() == 5, "NCDHW");\n' + body, index)[0]) == (
        "conv_transpose3d_sum"
    )
    assert match_document('TORCH_CHECK(x.dim() == 4, "NCHW");\n' + body, index)[0] is None


def test_an_operator_folders_readme_is_read_beside_its_code_as_the_audit_does(tmp_path) -> None:
    # An op tree of a library, named in its writer's words: its README states the numbers that
    # tell two sibling tasks apart; its code alone does not.
    short = _reference("        x = torch.tanh(x)", "\nbatch_size = 10\n")
    long = _reference("        x = torch.tanh(x)", "\nbatch_size = 10\ndepth = 77\nwidth = 555\n")
    index = _index({"conv2d_tanh_alpha": short, "conv2d_tanh_bravo": long})
    tree = tmp_path / "squash_after_filter"
    (tree / "op_kernel").mkdir(parents=True)
    (tree / "op_kernel" / "squash_after_filter.cpp").write_text(_conv_kernel("  Tanh(y, acc, n);"))
    (tree / "README.md").write_text(
        "# SquashAfterFilter\n\nA conv2d then tanh; batch 10, depth 77, width 555.\n"
    )
    [units] = list(iter_corpus(str(tmp_path)))
    assert "width 555" in unit_prose(units[0])
    assert [_task(index, m) for m in match_units(units, index)] == ["conv2d_tanh_bravo"]
    (tree / "README.md").unlink()
    [units] = list(iter_corpus(str(tmp_path)))
    assert unit_prose(units[0]) == "" and match_units(units, index) == []
