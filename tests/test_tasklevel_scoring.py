"""The features of task-level scoring added for renamed solutions and control corpora: stated
values, parameter words, switch words, the semantic-claim rules, the bounded unit document and
the card's policy sentence. Each case fails when its feature is taken out."""

from __future__ import annotations

import json

import pytest

import dedup.tasks
from curate.tasklevel import task_index_for
from dedup.tasks import (
    SEMANTIC_THRESHOLD,
    UNIT_SCAN_CHARS,
    candidate_facts,
    match_document,
    match_units,
    semantic_score,
    unit_document,
)
from parsers.torchref import read_reference
from schemas import KernelUnit
from tests.test_dedup_helpers import run_cli
from tests.test_tasklevel import _items, _write  # the same mini benchmark of named references


def test_a_strong_op_the_name_says_and_forward_never_does_is_not_required() -> None:
    # A misnamed task: its name says a group norm, its forward does a batch norm. A row that does
    # what the reference does solves it; a swish written out as x * sigmoid(x) is still done,
    # and a global average pool taken as a mean.
    from dedup.tasks import required_ops

    misnamed = read_reference(
        "conv2d_batch_norm_group_norm_relu",
        _reference("        x = torch.relu(F.batch_norm(x, None, None, training=True))"),
    )
    assert required_ops(misnamed) == ["batch_norm", "conv", "relu"]
    swish = read_reference(
        "conv2d_swish_scaling", _reference("        x = x * torch.sigmoid(x)\n        x = x * 2.0")
    )
    assert "swish" in required_ops(swish)
    pooled = read_reference(
        "conv2d_global_avg_pool_relu", _reference("        x = torch.relu(torch.mean(x, dim=[2, 3]))")
    )
    assert "avg_pool" in required_ops(pooled)


def _reference(forward: str, constants: str = "", params: str = "") -> str:
    return f"""import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size{params}):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        x = self.conv(x)
{forward}
        return x
{constants}
def get_inputs():
    return [torch.rand(10, 6, 30, 30)]

def get_init_inputs():
    return [6, 12, 3]
"""


# Two siblings: the same ops, the same words; only the numbers they are run with differ.
HARDTANH_SCALE = _reference("        x = F.hardtanh(x, min_val=-0.73, max_val=0.73)\n        x = x * 1.85")
SCALE_HARDTANH = _reference("        x = x * 3.5\n        x = F.hardtanh(x, min_val=-0.25, max_val=0.25)")
LEAKY = _reference("        x = F.leaky_relu(x, negative_slope=0.07)")
MATMUL_RELU = """import torch
class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.relu(torch.matmul(a, b))
"""
MATMUL_MIN_SUBTRACT = """import torch
class Model(torch.nn.Module):
    def forward(self, a, b):
        return torch.min(torch.matmul(a, b), dim=1)[0] - 0.3
"""
# A network: its name states no op, its forward is convolutions, norms and relus.
NETWORK = _reference("        x = F.relu(F.batch_norm(x, None, None, training=True))")


def _index(tasks: dict[str, str]):
    index = task_index_for(_items(tasks))
    assert index is not None
    return index


def _task(index, match) -> str:
    return "" if match is None else index.signatures[match.item].task


def _conv_kernel(body: str) -> str:
    return f"""
// direct convolution over a window, then the epilogue
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR w, GM_ADDR y) {{
  ConvWindow(acc, x, w);
{body}
}}
"""


def test_reference_values_are_evaluated_literals_and_constants() -> None:
    sig = read_reference("t", SCALE_HARDTANH + "\nM = 1024 * 2\nshape = (7, 0.125)\n")
    assert {3.5, 0.25, 2048.0, 7.0, 0.125} <= set(sig.values)


@pytest.mark.parametrize(
    ("body", "task"),
    [
        (
            "  Maxs(y, acc, -0.73f, n); Mins(y, y, 0.73f, n); Muls(y, y, 1.85f, n); // hardtanh",
            "conv2d_hardtanh_scale",
        ),
        (
            "  Muls(y, acc, 3.5f, n); Maxs(y, y, -0.25f, n); Mins(y, y, 0.25f, n); // hardtanh",
            "conv2d_scale_hardtanh",
        ),
    ],
)
def test_stated_values_tell_siblings_apart(body: str, task: str) -> None:
    index = _index({"conv2d_hardtanh_scale": HARDTANH_SCALE, "conv2d_scale_hardtanh": SCALE_HARDTANH})
    match, _ = match_document(_conv_kernel(body), index)
    assert _task(index, match) == task, "values missing: siblings tie and the first one wins"
    assert match is not None and match.shared_numbers


def test_an_attribute_only_one_op_has_shows_that_op() -> None:
    index = _index({"conv2d_leaky_relu": LEAKY, "conv2d_hardtanh_scale": HARDTANH_SCALE})
    body = (
        '  float slope = attrs.GetFloat("negative_slope"); Select(y, mask, acc, slope, n);  // conv2d output'
    )
    body += "\n  // in_channels 6, out_channels 12, kernel_size 3"
    kernel = _conv_kernel(body)
    match, _ = match_document(kernel, index)
    assert _task(index, match) == "conv2d_leaky_relu"


def test_a_relu_switch_of_a_matmul_copy_is_not_a_relu() -> None:
    index = _index({"matmul_relu": MATMUL_RELU})
    kernel = """
// matmul: Mmad over the K tiles, the result copied out of L0C
extern "C" __global__ __aicore__ void mm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  Mmad(c0, a0, b0, params);
  FixpipeParams fp; fp.reluMode = 0; bool enRelu = false;  // enRelu: off
  Fixpipe(cGm, c0, fp);
}
"""
    match, _ = match_document(kernel, index)
    assert _task(index, match) != "matmul_relu"
    applied = kernel.replace("fp.reluMode = 0; bool enRelu = false;  // enRelu: off", "Relu(c1, c1, n);")
    match, _ = match_document(applied, index)  # a relu it computes still counts
    assert _task(index, match) == "matmul_relu"


def test_a_fused_task_of_one_strong_op_is_not_claimed_by_semantics() -> None:
    index = _index({"matmul_min_subtract": MATMUL_MIN_SUBTRACT})
    kernel = """
// tiled matmul; the last tile is min(tileK, k - offset) long
extern "C" __global__ __aicore__ void mm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  uint32_t len = min(tileK, k - offset); Mmad(c0, a0, b0, len); Sub(c1, c0, bias, n);
}
"""
    match, _ = match_document(kernel, index)
    assert match is None, "a matmul that says min for its tiling claimed matmul_min_subtract"


def test_a_network_task_is_not_claimed_by_what_a_kernel_does() -> None:
    index = _index({"resnet_block": NETWORK})
    body = "  BatchNorm(y, acc, gamma, beta, n); Relu(y, y, n);\n  // conv2d block: in_channels 6, out_channels 12, kernel_size 3; batch norm; relu"
    kernel = _conv_kernel(body)
    match, _ = match_document(kernel, index)
    assert match is None, "a conv+bn+relu kernel was placed on a network task by semantics"


def _unit(code: str, host: str = "") -> KernelUnit:
    return KernelUnit(
        unit_id="u",
        source="t",
        origin_url="",
        commit="",
        path="ops/my_op/op_kernel/my_op.cpp",
        layout="msopgen",
        op_name="",
        kernel_name="",
        code=code,
        host_code=host,
    )


def test_unit_document_reads_its_own_files_not_library_headers() -> None:
    entry = 'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x) { Process(x); }\n'
    own = "\n// ---- ops/my_op/op_kernel/my_op_impl.h ----\n// tiles of the input, 6 by 12\n"
    shared = "\n// ---- common/helpers.h ----\n// conv2d helpers; relu helpers\nvoid conv_relu_helper();\n"
    unit = _unit(entry + own + shared, host='this->Attr("alpha");')
    document = unit_document(unit)
    assert "tiles of the input" in document and 'Attr("alpha")' in document
    assert "conv_relu_helper" not in document
    index = _index({"conv2d_relu": _reference("        x = F.relu(x)")})
    assert match_units([unit], index) == [], "a shared header's helper names placed the unit on a task"


def test_unit_document_is_bounded() -> None:
    unit = _unit("// x\n" + "int a;\n" * UNIT_SCAN_CHARS, host="y" * (3 * UNIT_SCAN_CHARS))
    assert len(unit_document(unit)) <= 2 * UNIT_SCAN_CHARS + 1


CUMSUM = """import torch
class Model(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)
"""
CUMSUM_REVERSE = CUMSUM.replace(
    "torch.cumsum(x, dim=self.dim)", "torch.cumsum(x.flip(self.dim), dim=self.dim).flip(self.dim)"
)


def test_a_sibling_whose_extra_words_are_found_scores_higher() -> None:
    index = _index({"cumsum": CUMSUM, "cumsum_reverse": CUMSUM_REVERSE})
    kernel = """
// cumsum (prefix sum) along dim, walking the row in reverse: the last element first
extern "C" __global__ __aicore__ void scan_kernel(GM_ADDR x, GM_ADDR y) { CumSum(acc, row, dim); }
"""
    facts, words = candidate_facts(kernel)
    plain, reverse = (semantic_score(index, t, facts, words, frozenset(facts.values)) for t in (0, 1))
    assert reverse.score > plain.score, "word mass missing: the shorter sibling ties with the longer"


CONV_MISH = _reference("        x = F.mish(x)")


def test_ops_a_task_is_carried_out_with_are_not_extra_work() -> None:
    index = _index({"conv2d_mish": CONV_MISH})
    body = (
        "  Mmad(c0, a0, b0, p); Softplus(t, acc, n); Tanh(t, t, n); Mul(y, acc, t, n);  // mish of the conv2d"
    )
    body += "\n  // in_channels 6, out_channels 12, kernel_size 3"
    match, _ = match_document(_conv_kernel(body), index)
    assert _task(index, match) == "conv2d_mish"
    facts, words = candidate_facts(_conv_kernel(body))
    scored = semantic_score(index, 0, facts, words, frozenset(facts.values))
    assert scored.ops == 1.0, "a conv's Mmad and a mish's softplus and tanh counted as extra work"


def test_a_running_product_is_no_product_reduction_beside_it() -> None:
    # "the cumulative product" says a product too: the running product's own step, not work a
    # cumprod task lacks (batch 12: a cumprod row had scored below the product reduction).
    index = _index(
        {
            "cumprod": CUMSUM.replace("cumsum", "cumprod"),
            "product_reduction_over_a_dimension": CUMSUM.replace("torch.cumsum", "torch.prod"),
        }
    )
    kernel = """
// the cumulative product along dim: each output is the product of the inputs so far
extern "C" __global__ __aicore__ void scan_kernel(GM_ADDR x, GM_ADDR y) { Mul(acc, acc, row, n); }
"""
    facts, words = candidate_facts(kernel)
    running, reduction = (semantic_score(index, t, facts, words, frozenset(facts.values)) for t in (0, 1))
    assert running.score > reduction.score, "the product a cumprod takes counted as extra work"


def test_the_select_an_argmin_keeps_its_position_with_is_no_extra_work() -> None:
    # An argmin takes the minimum and selects where it lies (a `where`): its
    # own steps, not work an argmin task lacks (batch 13: an argmin row had scored below the
    # threshold on them).
    index = _index({"argmin_over_a_dimension": CUMSUM.replace("torch.cumsum", "torch.argmin")})
    kernel = """
// argmin along dim: the running min, and the index kept where the row is below it
extern "C" __global__ __aicore__ void scan_kernel(GM_ADDR x, GM_ADDR y) {
  Min(best, best, row, n); pos = where(row < best, i, pos);
}
"""
    facts, words = candidate_facts(kernel)
    assert {"argmin", "min", "where"} <= facts.ops.keys()
    assert semantic_score(index, 0, facts, words, frozenset(facts.values)).ops == 1.0


# Siblings whose names state the same ops in the same order (`dedup.ties.in_the_order_named`
# tells apart those that state them in another): a renamed row's words tie them.
# Neither name is the other's with a word added: `dedup.ties.plain_apart` would take the plain one.
TIED_SIBLINGS = {
    "conv2d_hardtanh_scale_centred": HARDTANH_SCALE,
    "conv2d_hardtanh_scale_shifted": SCALE_HARDTANH,
}
TIED_BODY = (
    "  Maxs(y, acc, lo, n); Mins(y, y, hi, n); Muls(y, y, s, n);  // hardtanh and scale of the conv2d"
    "\n  // in_channels, out_channels, kernel_size"
)


def test_siblings_the_row_does_not_tell_apart_are_flagged_together() -> None:
    index = _index(TIED_SIBLINGS)
    match, _ = match_document(_conv_kernel(TIED_BODY), index)
    assert match is not None, "a row that solves one of two tied siblings was not flagged"
    named = {index.signatures[t].task for t in (match.item, *match.tied)}
    assert named == set(TIED_SIBLINGS), "a tie between siblings was settled by the order of the tasks"
    assert match.confidence == "low" and match.basis == "tie"


def test_a_tie_below_the_tie_floor_is_not_flagged(monkeypatch) -> None:
    monkeypatch.setattr(dedup.tasks, "TIE_FLOOR", 0.99)
    match, _ = match_document(_conv_kernel(TIED_BODY), _index(TIED_SIBLINGS))
    assert match is None, "a weak tie was flagged"


def test_leakage_names_every_tied_task(tmp_path, monkeypatch, capsys) -> None:
    bench = _write(tmp_path / "reference" / "fuse", {f"{t}.py": text for t, text in TIED_SIBLINGS.items()})
    train = _write(tmp_path / "train", {"renamed.cpp": _conv_kernel(TIED_BODY)})
    reports = tmp_path / "r"
    status, out, _ = run_cli(monkeypatch, capsys, "audit", train, bench.parent, "--report-dir", reports)
    assert status == 1 and "1 one of tied tasks" in out
    markdown = (reports / "leakage.md").read_text()
    assert "one of `conv2d_hardtanh_scale_centred`, `conv2d_hardtanh_scale_shifted`" in markdown
    record = json.loads((reports / "leakage.json").read_text())["task_matches"][0]
    assert {record["task_name"], *record["tied_tasks"]} == set(TIED_SIBLINGS)


CONV_RELU = _reference("        x = torch.relu(x)")
CLASSIFIER = """import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc = nn.Linear(16 * 5 * 5, num_classes)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        return self.fc(x.flatten(1))

def get_inputs():
    return [torch.rand(1, 1, 32, 32)]

def get_init_inputs():
    return [10]
"""


def test_a_classifier_network_is_not_placed_on_the_fused_task_one_of_its_blocks_does() -> None:
    index = _index({"conv2d_relu": CONV_RELU, "le_net_5": CLASSIFIER})
    row = _conv_kernel(
        "  Relu(y, acc, n);  // relu of the conv2d\n  // in_channels, out_channels, kernel_size"
    )
    match, _ = match_document(row, index)
    assert _task(index, match) == "conv2d_relu", "the block is no longer placed: the test proves nothing"
    network = row + "\n// the first block of the model; its head gives num_classes logits\n"
    match, _ = match_document(network, index)
    assert _task(index, match) != "conv2d_relu", "a classifier was placed on the task of its first block"


def test_a_binding_handed_a_list_of_layer_weights_is_not_placed_on_one_blocks_task() -> None:
    # A VGG's binding applies its convs in a loop over a list of weights; its custom kernel is
    # one block (a conv and a relu). A local vector (`at::broadcast_tensors`) says nothing.
    index = _index({"conv2d_relu": CONV_RELU, "le_net_5": CLASSIFIER})
    row = _conv_kernel(
        "  Relu(y, acc, n);  // relu of the conv2d\n  // in_channels, out_channels, kernel_size"
    )
    local = row + "\nstd::vector<at::Tensor> both = at::broadcast_tensors({x, w});\n"
    assert _task(index, match_document(local, index)[0]) == "conv2d_relu"
    network = row + (
        "\nat::Tensor run(const at::Tensor& x, const std::vector<at::Tensor>& weights) {\n"
        "  for (const auto& w : weights) { y = block(y, w); }\n  return y;\n}\n"
    )
    assert _task(index, match_document(network, index)[0]) != "conv2d_relu"


def test_an_activation_the_task_does_not_name_counts_as_more_extra_work_than_another_op() -> None:
    index = _index({"conv2d_relu": CONV_RELU})
    facts = {}
    for extra in (
        "Tanh(y, y, n); Sigmoid(y, y, n);  // then tanh, then sigmoid",
        "// then a layer norm and dropout",
    ):
        row = _conv_kernel(f"  Relu(y, acc, n);  // relu of the conv2d\n  {extra}")
        found, words = candidate_facts(row, full=False)
        facts[extra[:4]] = semantic_score(index, 0, found, words, frozenset()).score
    assert facts["Tanh"] < facts["// t"], "two extra activations cost no more than two other extra ops"


def _single(expression: str) -> str:
    return f"""import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return {expression}

def get_inputs():
    return [torch.rand(16, 16384)]
"""


def test_a_row_whose_one_hand_written_op_only_one_task_does_is_placed_on_it() -> None:
    # A renamed kernel that clamps to [-1, 1] by hand says none of its task's words; of the
    # tasks, only `hardtanh` does what it does. Beside a second op it is another task's work.
    index = _index(
        {
            "hardtanh": _single("torch.nn.functional.hardtanh(x, min_val=-1.0, max_val=1.0)"),
            "relu": _single("torch.relu(x)"),
            "softsign": _single("x / (1 + torch.abs(x))"),
        }
    )
    # (`false` passes the pre-test: it holds `lse`, a stem of logsumexp; the pre-test only
    # spares the scan of rows that cannot match.)
    body = "  AscendC::Maxs(y, x, (float)(-1.0f), n);\n  AscendC::Mins(y, y, (float)(1.0f), n);"
    row = f'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {{\n  bool done = false;\n{body}\n}}\n'
    match, _ = match_document(row, index)
    assert _task(index, match) == "hardtanh" and match is not None and match.level == "op"
    assert match.basis == "one explanation"
    two = row.replace("AscendC::Maxs(", "AscendC::Sigmoid(t, x, n); AscendC::Maxs(")
    assert _task(index, match_document(two, index)[0]) != "hardtanh"
    # A device function that names another op (`TanhOut`: a step of a larger kernel) is a step
    # the task does not explain either.
    helper = "__aicore__ inline void TanhOut(LocalTensor<float> y) {}\n"
    assert _task(index, match_document(helper + row, index)[0]) != "hardtanh"


WIDE_CLASSIFIER = (
    CLASSIFIER.replace("nn.Conv2d(1, 6, 5)", "nn.Conv2d(3, 96, 11, stride=4)")
    .replace("nn.Conv2d(6, 16, 5)", "nn.Conv2d(96, 256, 7)")
    .replace("16 * 5 * 5", "256 * 9 * 9")
    .replace("torch.rand(1, 1, 32, 32)", "torch.rand(1, 3, 227, 227)")
    .replace("return [10]", "return [1000]")
)


def test_a_classifier_network_is_placed_by_the_numbers_it_states() -> None:
    # Networks' names state no op and their ops are every network's: the layer widths, kernel
    # sizes and class counts a row states are what tell them apart.
    index = _index({"conv2d_relu": CONV_RELU, "le_net_5": CLASSIFIER, "wide_net": WIDE_CLASSIFIER})
    head = "// classifier: conv(1->6, k=5), conv(6->16, k=5), fc(400 -> num_classes=10) on 32x32 inputs\n"
    row = head + _conv_kernel("  Relu(y, acc, n);")
    match, _ = match_document(row, index)
    assert _task(index, match) == "le_net_5" and match is not None and match.basis == "network numbers"
    wide = head.replace("1->6, k=5), conv(6->16, k=5), fc(400", "3->96, k=11), conv(96->256, k=7), fc(20736")
    wide = wide.replace("=10) on 32x32", "=1000) on 227x227")
    assert _task(index, match_document(wide + _conv_kernel("  Relu(y, acc, n);"), index)[0]) == "wide_net"
    # Numbers both networks state alike name neither.
    vague = "// classifier: conv layers then fc to num_classes\n" + _conv_kernel("  Relu(y, acc, n);")
    assert match_document(vague, index)[0] is None


def test_a_gelu_carried_out_with_a_sigmoid_or_a_tanh_does_no_extra_work() -> None:
    # x * sigmoid(1.702 x) and the tanh form are how kernels compute a GELU.
    index = _index({"conv2d_gelu": _reference("        x = F.gelu(x)")})
    plain = _conv_kernel("  // gelu of the conv2d\n  Gelu(y, acc, n);")
    base = semantic_score(index, 0, *candidate_facts(plain, full=False), frozenset()).score
    for helper in ("Sigmoid(t, acc, n);  // gelu as x * sigmoid(1.702 x)", "Tanh(t, acc, n);"):
        row = plain.replace("Gelu(y, acc, n);", helper)
        assert semantic_score(index, 0, *candidate_facts(row, full=False), frozenset()).score >= base


def test_a_dot_product_is_a_matmul_and_a_product_of_dims_a_size() -> None:
    attention = read_reference("scaled_dot_product_attention", _single("torch.softmax(x @ x.T, dim=-1) @ x"))
    assert "prod" not in attention.ops, "a dot product read as a reduction by multiplication"
    # Linear attention is a kind of attention, not an attention and a linear layer.
    from dedup.tasks import required_ops

    assert required_ops(read_reference("linear_attention", _single("torch.relu(x) @ x.T"))) == ["attention"]
    sizes = "TILING_DATA_FIELD_DEF(uint32_t, rows);  // product of leading dims of x\n"
    row = sizes + 'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) { Exp(y, x, n); }\n'
    facts, _ = candidate_facts(row, full=False)
    assert "prod" not in facts.ops
    longer = row.replace("product of leading dims of x", "product of all but the last dim")
    assert "prod" not in candidate_facts(longer, full=False)[0].ops
    buffer = "LocalTensor<float> prod = prodBuf.Get<float>();  // product scratch\nMul(prod, w, x, n); ReduceSum(s, prod, t, n);\n"
    assert "prod" not in candidate_facts(buffer + row, full=False)[0].ops, (
        "a dot product's buffer read as a reduction"
    )
    assert "prod" in candidate_facts(buffer.replace("Mul(prod", "Mul(acc") + row, full=False)[0].ops, (
        "proves nothing"
    )
    for size in ("product dims[1:]", "elements per row (prod of normalized_shape)"):
        assert "prod" not in candidate_facts(row.replace("product of leading dims of x", size))[0].ops, size
    said = row.replace("product of leading dims of x", "product over dim 1 of x")
    assert "prod" in candidate_facts(said, full=False)[0].ops, "the test proves nothing"
    named = row.replace("product of leading dims of x", "product of outerShape")  # an identifier
    assert "prod" not in candidate_facts(named, full=False)[0].ops
    aside = row.replace("product of leading dims of x", "product of the leading (broadcast) dims of x")
    assert "prod" not in candidate_facts(aside, full=False)[0].ops


def test_a_plain_convolution_task_is_not_placed_on_a_row_whose_vector_calls_do_more() -> None:
    # A convolution the binding runs (`at::conv2d`), then a kernel that takes a minimum and
    # divides: a fused task's work, not the plain convolution's.
    index = _index({"conv_standard_2d": _reference("")})
    binding = (
        "at::Tensor y = at::conv2d(x, weight);  // standard conv2d: in_channels, out_channels, kernel_size\n"
    )
    plain = binding + _conv_kernel("  Add(y, acc, bias, n);")
    assert _task(index, match_document(plain, index)[0]) == "conv_standard_2d", "the test proves nothing"
    more = binding + _conv_kernel("  Mins(y, acc, 0.5f, n);\n  Div(y, y, scale, n);")
    assert match_document(more, index)[0] is None


RESIDUAL_NET = CLASSIFIER.replace(
    "        self.fc = nn.Linear(16 * 5 * 5, num_classes)\n",
    "        self.fc = nn.Linear(16 * 5 * 5, num_classes)\n"
    "        self.skip = nn.Conv2d(6, 16, kernel_size=1, stride=2, bias=False)\n",
)


def test_a_network_is_placed_by_the_model_building_lines_its_row_repeats() -> None:
    # A solution's `ModelNew` builds the reference's layers alike (the harness loads the
    # reference's parameters into it), whatever its kernels are named.
    index = _index({"le_net_5": CLASSIFIER, "le_net_skip": RESIDUAL_NET, "conv2d_relu": CONV_RELU})
    model = (
        "class ModelNew(nn.Module):\n    def __init__(self, num_classes):\n"
        "        self.conv1 = nn.Conv2d(1, 6, 5)\n        self.conv2 = nn.Conv2d(6,16,5)  # spaces differ\n"
        "        self.fc = nn.Linear(16 * 5 * 5, num_classes)\n"
    )
    row = model + _conv_kernel("  Relu(y, acc, n);  // relu of the conv2d")
    match, _ = match_document(row, index)
    assert _task(index, match) == "le_net_5" and match is not None and match.basis == "network lines"
    skip = model + "        self.skip = nn.Conv2d(6, 16, kernel_size=1, stride=2, bias=False)\n"
    assert _task(index, match_document(skip + _conv_kernel("  Relu(y, acc, n);"), index)[0]) == "le_net_skip"
    # Lines both networks have alike name neither.
    shared = "        self.conv1 = nn.Conv2d(1, 6, 5)\n" + _conv_kernel("  Relu(y, acc, n);  // num_classes")
    assert _task(index, match_document(shared, index)[0]) not in ("le_net_5", "le_net_skip")


def test_a_tie_is_broken_by_a_telling_name_word_not_by_the_op_every_tied_task_does() -> None:
    from dedup.ties import named_apart

    index = _index(
        {
            "gather": _single("torch.gather(x, 1, x.long())"),
            "take_along_dim": _single("torch.take_along_dim(x, x.long(), dim=1)"),
            "cumsum": _single("torch.cumsum(x, dim=1)"),
            "cumsum_reverse": _single("torch.cumsum(x.flip(1), dim=1).flip(1)"),
        }
    )
    # Both gather: a row that says "gather" says what it does, not which of them it is.
    assert named_apart(index, [0, 1], {"gather", "index"}) == [0, 1]
    # "reverse" is a word only one of the tied names has.
    assert named_apart(index, [2, 3], {"reverse", "cumsum"}) == [3]


CROSS_ENTROPY = """import torch
class Model(torch.nn.Module):
    def forward(self, predictions, targets):
        return torch.nn.functional.cross_entropy(predictions, targets)

batch_size = 128
num_classes = 4096

def get_inputs():
    return [torch.rand(batch_size, num_classes), torch.randint(0, num_classes, (batch_size,))]
"""


def test_a_row_of_num_classes_logits_may_be_a_loss_whose_inputs_are_made_with_them() -> None:
    # `num_classes` marks a classifier network's row, and a loss's over classifier logits: the
    # loss's reference makes its inputs with it.
    index = _index({"le_net_5": CLASSIFIER, "cross_entropy_loss": CROSS_ENTROPY})
    row = (
        "TILING_DATA_FIELD_DEF(uint32_t, num_classes);\n"
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR logits, GM_ADDR target, GM_ADDR loss) {\n'
        "  // cross entropy: log-sum-exp of each row minus the target's logit, then the mean\n"
        "  ReduceMax(m, x, w, n); Exp(e, x, n); ReduceSum(s, e, w, n); Ln(s, s, 1);\n}\n"
    )
    assert _task(index, match_document(row, index)[0]) == "cross_entropy_loss"


def test_mingpt_is_a_name_not_a_minimum() -> None:
    from dedup.tasks import required_ops

    sig = read_reference("min_gpt_new_gelu", _single("0.5 * x * (1.0 + torch.tanh(x))"))
    assert required_ops(sig) == ["gelu"], "minGPT's `min` made a minimum every solution must show"
    assert "min" in required_ops(read_reference("conv2d_min_tanh", _single("torch.min(x, dim=1)[0]")))


def test_the_report_shows_the_reference_lines_a_row_repeats(tmp_path, monkeypatch, capsys) -> None:
    bench = _write(
        tmp_path / "reference" / "arch", {"le_net_5.py": CLASSIFIER, "le_net_skip.py": RESIDUAL_NET}
    )
    _write(tmp_path / "reference" / "fuse", {"conv2d_relu.py": CONV_RELU})
    model = (
        "class ModelNew(nn.Module):\n    def __init__(self, num_classes):\n"
        "        self.conv1 = nn.Conv2d(1, 6, 5)\n        self.conv2 = nn.Conv2d(6, 16, 5)\n"
        "        self.fc = nn.Linear(16 * 5 * 5, num_classes)\n"
    )
    train = _write(
        tmp_path / "train", {"row.cpp": model + _conv_kernel("  Relu(y, acc, n);  // relu of the conv2d")}
    )
    reports = tmp_path / "r"
    status, out, _ = run_cli(monkeypatch, capsys, "audit", train, bench.parent, "--report-dir", reports)
    assert status == 1, out
    record = json.loads((reports / "leakage.json").read_text())["task_matches"][0]
    assert record["task_name"] == "le_net_5" and record["basis"] == "network lines"
    assert (
        record["model_lines"]["repeated"] == 3
        and "self.conv1=nn.Conv2d(1,6,5)" in record["model_lines"]["first"]
    )
    assert "repeats 3 of the" in (reports / "leakage.md").read_text()


def test_a_name_that_states_no_op_is_backed_by_one_of_its_tasks_ops() -> None:
    # `mamba_return_final_state` names no op: its reference's ops (a cumsum, an exp, a softmax)
    # are what its name stands for, and a solution named after it may do one of them by hand.
    state_space = _single("torch.softmax(torch.exp(torch.cumsum(x, dim=-1)) @ x.T, dim=-1)")
    index = _index({"mamba_return_final_state": state_space, "conv2d_relu": CONV_RELU})
    row = 'extern "C" __global__ __aicore__ void mamba_return_final_state_custom(GM_ADDR x, GM_ADDR y) {\n  Exp(y, x, n);\n}\n'
    match, _ = match_document(row, index)
    assert (
        _task(index, match) == "mamba_return_final_state" and match is not None and match.layer == "identity"
    )
    assert match_document(row.replace("Exp(y, x, n);", "DataCopy(y, x, n);"), index)[0] is None


def test_an_elementwise_task_is_not_placed_on_a_row_that_reduces() -> None:
    # A hinge loss clamps at zero (a relu) and then takes the mean: a loss, not the relu task.
    index = _index({"relu": _single("torch.relu(x)")})
    row = 'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n  // relu of the row\n  Relu(y, x, n);\n}\n'
    assert _task(index, match_document(row, index)[0]) == "relu", "the test proves nothing"
    loss = row.replace("Relu(y, x, n);", "Relu(y, x, n);\n  ReduceSum(s, y, work, n);  // then the mean")
    assert match_document(loss, index)[0] is None


def test_num_groups_is_a_group_norm_only_beside_a_root() -> None:
    grouped_gemm = "// grouped GEMM: num_groups independent products\nuint32_t num_groups = t.num_groups;\n"
    assert "group_norm" not in candidate_facts(grouped_gemm, full=False)[0].ops
    norm = grouped_gemm + "Rsqrt(inv, var, n);  // 1 / sqrt(var + eps)\n"
    assert "group_norm" in candidate_facts(norm, full=False)[0].ops


def test_a_versioned_name_is_its_versioned_task() -> None:
    from dedup.names import op_name_key

    # The version is dropped wherever it ends the name, before or after the packaging word...
    assert op_name_key("MobilenetV2Custom") == op_name_key("mobilenet_v2") == "mobilenet"
    assert op_name_key("MatMulV2") == op_name_key("MatMulV2Custom") == "matmul"
    # ...and kept to tell apart two tasks only a version separates.
    index = _index({"mobilenet_v1": CLASSIFIER, "mobilenet_v2": RESIDUAL_NET})
    for version in ("V1", "V2"):
        row = f'// op "Mobilenet{version}Custom"\n' + _conv_kernel("  Relu(y, acc, n);").replace(
            "op_zulu", f"mobilenet_{version.lower()}_custom"
        )
        assert _task(index, match_document(row, index)[0]) == f"mobilenet_{version.lower()}"


SMALL_NET = """import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 32, kernel_size=5)
        self.conv2 = nn.Conv2d(32, 64, kernel_size=3)
        self.conv3 = nn.Conv2d(64, 64, kernel_size=3)
        self.fc1 = nn.Linear(1024, 256)
        self.fc2 = nn.Linear(256, num_classes)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.conv3(x))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)

def get_inputs():
    return [torch.rand(8, 3, 48, 48)]
"""


def test_a_network_whose_forward_the_binding_runs_call_by_call_is_placed_on_it() -> None:
    # A binding that runs the network's layers as torch calls, its fully connected layers in a
    # custom kernel: the calls repeat the reference's forward in order. Without the chain this
    # row is placed nowhere (a fresh AlexNet so written had been placed on the fused task its
    # convolutions, relus and bias adds share).
    index = _index(
        {"small_net": SMALL_NET, "conv2d_relu_bias_add": _reference("        x = torch.relu(x) + 1.0")}
    )
    binding = """
at::Tensor forward(const at::Tensor& x, const std::vector<at::Tensor>& w, const std::vector<at::Tensor>& b) {
  at::Tensor h = at::max_pool2d(at::relu(at::conv2d(x, w[0], b[0])), {2, 2});
  h = at::max_pool2d(at::relu(at::conv2d(h, w[1], b[1])), {2, 2});
  h = at::relu(at::conv2d(h, w[2], b[2]));
  h = at::flatten(h, 1);
  return dense(h);  // the custom op: bias add and relu on the cube unit
}
"""
    row = binding + _conv_kernel("  Add(y, acc, bias, n);\n  Relu(y, y, n);")
    match, _ = match_document(row, index)
    assert _task(index, match) == "small_net" and match is not None and match.basis == "forward chain"
    # One convolution run so is no network's forward.
    short = row.replace(
        binding.split("\n", 3)[3], "  return dense(at::relu(at::conv2d(x, w[0], b[0])));\n}\n"
    )
    assert _task(index, match_document(short, index)[0]) != "small_net"


def test_a_hostile_chain_of_calls_is_read_in_one_pass_and_places_no_network() -> None:
    # Thousands of calls, unclosed or nested: their parentheses are matched in one pass, and the
    # ops both sides have, counted, bound every task's share below the floor (no subsequence is
    # computed). Quadratic forms took minutes on such rows.
    from dedup.tasks import torch_call_chain

    index = _index({"small_net": SMALL_NET})
    for row in ("at::relu(" * 12000, "at::relu(at::conv2d(at::max_pool2d(" * 3000 + ")" * 9000):
        assert len(torch_call_chain(row)) >= 9000
        assert _task(index, match_document(row, index)[0]) != "small_net"


def test_an_everyday_word_of_a_task_name_counts_only_beside_the_word_it_qualifies() -> None:
    # "upper" is a bound in most kernels: it names the triangular task only beside "triangular".
    upper = """import torch
class Model(torch.nn.Module):
    def forward(self, A, B):
        return torch.triu(torch.matmul(A, B))
N = 4096
def get_inputs():
    return [torch.triu(torch.rand(N, N)), torch.triu(torch.rand(N, N))]
"""
    index = _index({"matmul_for_upper_triangular_matrices": upper, "conv2d_relu": CONV_RELU})
    row = """
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR a, GM_ADDR b, GM_ADDR c) {
  // matmul of the two matrices; COMMENT
  mm.SetTensorA(aGlobal); mm.SetTensorB(bGlobal); mm.IterateAll(cGlobal);
}
"""
    bound = semantic_score(
        index,
        0,
        *candidate_facts(row.replace("COMMENT", "upper bound of the tile loop"), full=False),
        frozenset(),
    )
    stated = semantic_score(
        index, 0, *candidate_facts(row.replace("COMMENT", "upper triangular"), full=False), frozenset()
    )
    assert stated.words > bound.words
    assert (
        bound.words
        == semantic_score(
            index, 0, *candidate_facts(row.replace("COMMENT", ""), full=False), frozenset()
        ).words
    )


def test_a_fused_task_of_a_heavy_op_and_weak_steps_is_claimed_when_vector_calls_do_the_steps() -> None:
    # `conv2d_scaling_min` requires a conv and a min; "min" is a word of every tiling, so the
    # word alone claims nothing. A renamed row whose AscendC calls take the minimum after its
    # convolution does the step; a header of vector wrappers that calls everything does not.
    index = _index(
        {
            "conv2d_scaling_min": _reference(
                "        x = x * 2.0\n        x = torch.min(x, dim=1, keepdim=True)[0]"
            )
        }
    )
    row = _conv_kernel(
        "  Muls(y, acc, scale, n);  // scaling\n  ReduceMin<float>(m, y, work, channels);  // min over channels"
    )
    assert _task(index, match_document(row, index)[0]) == "conv2d_scaling_min"
    wrappers = row.replace(
        "ReduceMin<float>(m, y, work, channels);",
        "ReduceMin<float>(m, y, work, channels); Exp(e, y, n); Log(l, e, n);",
    )
    assert match_document(wrappers, index)[0] is None


def test_a_transposed_conv_clamped_by_its_calls_is_claimed_once() -> None:
    # A transposed conv is one heavy op though its words show a conv too, and its clamp is the
    # `Maxs` and `Mins` that bound it.
    transposed_clamp = _reference("        x = torch.clamp(x, min=-0.2, max=0.2)").replace(
        "nn.Conv2d", "nn.ConvTranspose2d"
    )
    index = _index({"conv_transpose2d_clamp": transposed_clamp})
    row = _conv_kernel(
        "  // transposed convolution, scattered taps\n"
        "  Maxs(y, acc, -0.2f, n);\n  Mins(y, y, 0.2f, n);  // clamp to [-0.2, 0.2]"
    ).replace("ConvWindow", "ConvTransposeWindow")
    assert _task(index, match_document(row, index)[0]) == "conv_transpose2d_clamp"
    # a call of another step beside them is work the task does not do
    extra = row.replace("Mins(y, y, 0.2f, n);", "Mins(y, y, 0.2f, n); Exp(y, y, n);")
    assert match_document(extra, index)[0] is None
    # Claimed by the calls and by the shapes it states, the task is one candidate: it had tied
    # with itself.
    stated = row.replace(
        "transposed convolution,", "transposed convolution of x (10, 6, 30, 30) by w (6, 12, 3, 3),"
    )
    match = match_document(stated, index)[0]
    assert match is not None and _task(index, match) == "conv_transpose2d_clamp" and not match.tied


def test_a_weak_word_of_the_name_that_forward_does_not_compute_is_not_required() -> None:
    # `conv_transpose3d_sum_residual_add_...`'s "sum" is its bias add: a row doing every step of
    # the reference had been refused the task for showing no sum. A sum forward takes stays.
    from dedup.tasks import required_ops

    added = read_reference("conv2d_sum_relu", _reference("        x = torch.relu(x + 1.0)"))
    assert "sum" in added.ops and "sum" not in added.forward_ops  # the name's word, not forward's
    assert required_ops(added) == ["conv", "relu"]
    summed = read_reference("conv2d_sum_relu", _reference("        x = torch.relu(torch.sum(x, dim=1))"))
    assert required_ops(summed) == ["conv", "relu", "sum"]
    # Left its convolution alone, the task would be a plain conv's sibling: the word stays.
    alone = read_reference("conv2d_sum_residual_add", _reference("        x = x + 1.0"))
    assert required_ops(alone) == ["conv", "sum"]


def test_a_single_op_kernel_beside_heavier_work_is_one_step_of_it() -> None:
    # A GoogLeNet reply whose custom kernel is the 3x3 max pool, its convolutions `at::conv2d`
    # calls of the binding: the kernel is one step of the network, not a `max_pool2d` solution.
    pool = """import torch
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = torch.nn.MaxPool2d(kernel_size=3, stride=1, padding=1)
    def forward(self, x):
        return self.pool(x)
batch_size, channels, height, width = 10, 480, 28, 27
def get_inputs():
    return [torch.rand(batch_size, channels, height, width)]
"""
    index = _index({"max_pooling_2d": pool, "conv2d_relu": CONV_RELU})
    kernel = (
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n'
        "  // 3x3 max pooling window, stride 1, padding 1, on 10 x 480 x 28 x 28\n  MaxPool3x3(y, x);\n}\n"
    )
    assert _task(index, match_document(kernel, index)[0]) == "max_pooling_2d"
    branch = (
        kernel + "at::Tensor run(const at::Tensor& x, const at::Tensor& w) {\n  return at::conv2d(x, w);\n}\n"
    )
    assert match_document(branch, index)[0] is None


def test_the_files_of_one_operator_folder_are_one_candidate(tmp_path) -> None:
    # A directory of op trees (MultiKernelBench's layout) audited file by file: the kernel alone
    # is a relu, its binding alone a convolution; together they solve the fused task, once.
    from curate.sources import code_files, file_unit
    from dedup.tasks import match_units
    from tests.test_tasklevel_idioms import RELU

    tree = tmp_path / "OpZulu"
    (tree / "op_kernel").mkdir(parents=True)
    (tree / "CppExtension" / "csrc").mkdir(parents=True)
    (tree / "op_kernel" / "op_zulu.cpp").write_text(
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n'
        "  AscendC::Relu(yLocal, xLocal, tileLength);\n}\n"
    )
    (tree / "CppExtension" / "csrc" / "op.cpp").write_text(
        "at::Tensor op_zulu_npu(const at::Tensor& x, const at::Tensor& w) {\n"
        "  at::Tensor c = at::conv2d(x, w);\n  at::Tensor y = at::empty_like(c);\n"
        "  EXEC_NPU_CMD(aclnnOpZulu, c, y);\n  return y;\n}\n"
    )
    (tmp_path / "loose.cpp").write_text("// a file of no operator folder\nAscendC::Relu(y, x, n);\n")
    index = _index({"relu": RELU, "conv2d_relu": CONV_RELU})
    units = [file_unit("trees", tmp_path, path) for path in code_files(tmp_path)]
    matches = {units[m.unit].path: index.signatures[m.item].task for m in match_units(units, index)}
    assert matches.get("OpZulu/op_kernel/op_zulu.cpp") == "conv2d_relu"
    assert "OpZulu/CppExtension/csrc/op.cpp" not in matches  # reported once, on the kernel
    assert matches.get("loose.cpp") == "relu"  # a file outside an operator folder stays alone
    # A kernel-launch sample: its kernel and the main.cpp that launches it are one candidate.
    sample = tmp_path / "samples" / "rect"
    sample.mkdir(parents=True)
    (sample / "rect.cpp").write_text((tree / "op_kernel" / "op_zulu.cpp").read_text())
    (sample / "main.cpp").write_text(
        "int main() {\n  // relu of x\n  ACLRT_LAUNCH_KERNEL(rect)(8, stream, x, y);\n}\n"
    )
    alone = match_units([file_unit("s", tmp_path, sample / "main.cpp")], index)
    assert len(alone) == 1, "main.cpp alone is read as a relu"
    units = [file_unit("trees", tmp_path, path) for path in code_files(tmp_path)]
    reported = [units[m.unit].path for m in match_units(units, index)]
    assert "samples/rect/rect.cpp" in reported and "samples/rect/main.cpp" not in reported


# Two attentions: one written out as matmuls and a softmax, one through nn.MultiheadAttention
# with a causal mask. They are the same computation; only the mask tells them apart.
WRITTEN_OUT_ATTENTION = """import math
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model // num_heads)
        self.v_proj = nn.Linear(d_model, d_model // num_heads)

    def forward(self, x):
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        return torch.matmul(torch.softmax(scores, dim=-1), v)
"""
MASKED_ATTENTION = """import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, d_model, num_heads, max_seq_len):
        super().__init__()
        self.mha = nn.MultiheadAttention(d_model, num_heads, batch_first=True)
        self.register_buffer("mask", torch.triu(torch.ones(max_seq_len, max_seq_len), diagonal=1).bool())

    def forward(self, x):
        out, _ = self.mha(x, x, x, attn_mask=self.mask[: x.size(1), : x.size(1)])
        return out
"""


def test_an_attention_written_out_does_not_outscore_its_sibling_on_its_steps() -> None:
    index = _index({"multi_query_attention": WRITTEN_OUT_ATTENTION, "causal_attention": MASKED_ATTENTION})
    kernel = """
// attention over num_heads heads: each query row scores every key, softmax, times V
extern "C" __global__ __aicore__ void attend(GM_ADDR q, GM_ADDR k, GM_ADDR v, GM_ADDR out) {
    Matmul(scores, qLocal, kLocal);  // the attention scores
    Softmax(probs, scores, rowLen);   // masked softmax over each row
    Matmul(outLocal, probs, vLocal);
}
"""
    facts, words = candidate_facts(kernel)
    written, masked = (semantic_score(index, t, facts, words, frozenset(facts.values)) for t in (0, 1))
    assert masked.score > written.score, "the written-out sibling won on the steps every attention takes"
    assert "matmul" not in index.scored_ops[0] and "softmax" not in index.scored_ops[0]


def test_the_order_a_row_names_its_ops_in_settles_a_tie_between_siblings_of_those_ops() -> None:
    # `conv2d_relu_hard_swish` and `conv2d_hard_swish_relu` do the same ops in another order: the
    # row's words tie them, the order it first names them in tells them apart.
    relu_first = _reference("        x = torch.relu(x)\n        x = F.hardswish(x)")
    index = _index(
        {
            "conv2d_relu_hard_swish": relu_first,
            "conv2d_hard_swish_relu": _reference("        x = F.hardswish(x)\n        x = torch.relu(x)"),
        }
    )
    sizes = "\n  // in_channels 6, out_channels 12, kernel_size 3"
    for body, task in (
        ("  Relu(acc, acc, n);\n  HardSwish(acc, acc, n);", "conv2d_relu_hard_swish"),
        ("  HardSwish(acc, acc, n);\n  Relu(acc, acc, n);", "conv2d_hard_swish_relu"),
    ):
        match, _ = match_document(_conv_kernel(body + sizes), index)
        assert _task(index, match) == task and match is not None and match.tied == []
    # Siblings of other ops are not told apart by the order their shared ops are named in.
    index = _index({"conv2d_relu_hard_swish": relu_first, "conv2d_relu_hard_swish_b": relu_first})
    match, _ = match_document(_conv_kernel("  Relu(acc, acc, n);\n  HardSwish(acc, acc, n);" + sizes), index)
    assert match is not None and len(match.tied) == 1


def _upsample(mode: str) -> str:
    return f"""import torch
import torch.nn.functional as F
class Model(torch.nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=2, mode="{mode}")
def get_inputs():
    return [torch.rand(8, 3, 64, 64)]
"""


def test_a_row_whose_words_clearly_choose_one_of_a_family_is_placed_below_the_threshold() -> None:
    index = _index(
        {"nearest_neighbor_upsample": _upsample("nearest"), "bilinear_upsample": _upsample("bilinear")}
    )
    kernel = '\\nextern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) { DataCopy(a, b, n); }\\n'
    match, _ = match_document("// interpolate x2, nearest neighbor" + kernel, index)
    assert _task(index, match) == "nearest_neighbor_upsample" and match is not None
    assert match.score < SEMANTIC_THRESHOLD and match.tied == [] and match.basis == "sibling lead"
    # words that do not choose between the siblings place neither
    assert match_document("// interpolate x2" + kernel, index)[0] is None


def test_the_mode_a_row_names_places_the_one_sibling_whose_call_takes_it() -> None:
    # Siblings whose names do not say their mode (`resize_with_antialias` is bilinear): the mode
    # of the one reference call the row names places it, below the threshold; a mode two of them
    # take, or two modes named, place none.
    index = _index(
        {
            "upsample_alpha": _upsample("nearest"),
            "upsample_beta": _upsample("bicubic"),
            "upsample_gamma": _upsample("bilinear"),
            "upsample_delta": _upsample("bilinear"),
        }
    )
    kernel = '\nextern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y) { DataCopy(a, b, n); }\n'
    match, _ = match_document("// upsample x2: each pixel repeated (nearest)" + kernel, index)
    assert _task(index, match) == "upsample_alpha" and match is not None and match.basis == "call named"
    assert (
        _task(index, match_document("// upsample x2, bicubic weights" + kernel, index)[0]) == "upsample_beta"
    )
    assert match_document("// upsample x2, bilinear weights" + kernel, index)[0] is None
    assert match_document("// upsample x2, nearest or bicubic" + kernel, index)[0] is None


def test_a_row_that_shows_a_networks_layers_is_no_fused_task_that_lacks_them() -> None:
    # A ResNet block (conv, batch norm, relu, the residual added) or a VGG stage (conv, relu, max
    # pool) does a fused task's ops and more: `conv2d_relu_bias_add` is no task it solves.
    index = _index(
        {
            "conv2d_relu_bias_add": _reference(
                "        x = torch.relu(x)\n        x = x + self.bias", params=""
            ),
            "softmax": _single("torch.softmax(x, dim=1)"),
        }
    )
    epilogue = (
        "  Relu(acc, acc, n); Add(y, acc, bias, n);  // conv2d, relu, bias add\n"
        "  // in_channels 6, out_channels 12, kernel_size 3, 10 x 6 x 30 x 30\n"
    )
    match, _ = match_document(_conv_kernel(epilogue), index)
    assert _task(index, match) == "conv2d_relu_bias_add", (
        "the fused task is not placed: the test proves nothing"
    )
    for layer in (
        "  BatchNormInfer(acc, acc, mean, var, n);  // batch_norm\n",
        "  MaxPool2x2(y, acc);  // max_pool\n",
    ):
        match, _ = match_document(_conv_kernel(layer + epilogue), index)
        assert _task(index, match) != "conv2d_relu_bias_add", layer


def test_a_resize_that_filters_before_it_samples_names_its_op() -> None:
    # `resize_with_antialias` says no op's word but "antialias": read as an interpolation, the
    # task is claimed by what a renamed row does, not only by its name.
    from schemas.taskops import name_ops

    assert name_ops("resize_with_antialias") == ["interpolate"]


def test_of_tied_siblings_the_one_needing_no_inferred_op_is_placed() -> None:
    # A conv, a layer norm and a GELU. Its "avg" is read as an average pool too, which completes
    # the sibling that pools: the two tie. The sibling that needs no op the row only implies is
    # the better supported (fresh rows: a transposed conv's layer norm, 3 placed right).
    plain = _reference("        x = F.layer_norm(x, x.shape[-1:])\n        x = F.gelu(x)")
    pooled = _reference(
        "        x = F.layer_norm(x, x.shape[-1:])\n        x = F.avg_pool2d(x, 2)\n        x = F.gelu(x)"
    )
    index = _index({"conv2d_layer_norm_gelu": plain, "conv2d_layer_norm_avg_pool_gelu": pooled})
    row = _conv_kernel(
        "  // conv2d, layer norm over the last dim (its avg and variance), gelu\n"
        "  LayerNorm(y, acc, gamma, beta, n);\n  Gelu(y, y, n);"
    )
    match, facts = match_document(row, index)
    assert "avg_pool" in facts.inferred
    assert match is not None and _task(index, match) == "conv2d_layer_norm_gelu" and not match.tied


def test_the_numbers_a_row_states_outweigh_words_whose_task_states_none() -> None:
    # A GELU in its tanh form: its 0.044715 and sqrt(2 / pi) are the tanh-form task's numbers;
    # the erf GELU, whose words the row says as well, states none of them.
    tanh_form = """import math
import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))

def get_inputs():
    return [torch.rand(2000, 2000)]
"""
    index = _index({"gelu": _single("torch.nn.functional.gelu(x)"), "min_gpt_new_gelu": tanh_form})
    row = (
        "// y = gelu(x) = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * pow(x, 3))))\n"
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n'
        "  Mul(t, x, x, n); Mul(t, t, x, n); Muls(t, t, 0.044715f, n); Add(t, t, x, n);\n"
        "  Muls(t, t, 0.7978845608f, n); Tanh(t, t, n); Adds(t, t, 1.0f, n); Mul(y, t, x, n);\n"
        "  Muls(y, y, 0.5f, n);  // 2000 x 2000\n}\n"
    )
    match, _ = match_document(row, index)
    assert _task(index, match) == "min_gpt_new_gelu"
    assert match is not None and match.basis == "stated numbers"
