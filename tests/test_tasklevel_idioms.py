"""Ops a renamed solution writes out by hand (`dedup.idioms`): no word says them, the shape of the
code that computes them does. Fixtures are written for these tests."""

from __future__ import annotations

import re

import pytest

from dedup.idioms import IDIOMS, handwritten_ops
from dedup.tasks import JUDGE_CANDIDATES, candidate_facts, match_document
from tests.test_tasklevel_scoring import _conv_kernel, _index, _reference, _task


def _ops(code: str) -> dict[str, bool]:
    return {op: incidental for op, _, incidental in handwritten_ops(code)}


@pytest.mark.parametrize(
    ("code", "op"),
    [
        ("if (acc < 0.0f) { acc = 0.0f; }", "relu"),
        ("const float r = (acc0 > 0.0f) ? acc0 : 0.0f;", "relu"),
        ("v = v < 0.f ? 0.f : v;", "relu"),
        ("y = fmaxf(y, 0.0f);", "relu"),
        ("AscendC::Maxs(yLocal, xLocal, (float)0, len);", "relu"),
        ("return (v >= 0.0f) ? v : (v * neg_slope);", "leaky_relu"),
        ("if (v < 0.0f) v *= slope;", "leaky_relu"),
        ("float s = 1.0f / (1.0f + expf(-x));", "sigmoid"),
        ("AscendC::Sigmoid(s, xLocal, len);\n    AscendC::Mul(yLocal, xLocal, s, len);", "swish"),
        ("Sigmoid<float>(y, x, tmp, n); Mul(y, y, x, n);", "swish"),
        ('m.def("op", &op, "op(x) -> x * sigmoid(x)");', "swish"),
        ("return v / (1.0f + expf(-v));", "swish"),
        (
            "at::Tensor run(const at::Tensor& x, const at::Tensor& h0, const at::Tensor& c0, const at::Tensor& w_ih)",
            "lstm",
        ),
        ('this->Input("x"); this->Input("grid");', "grid_sample"),
        ("AscendC::Maxs(y, x, (float)(-1.0f), n);\n    AscendC::Mins(y, y, (float)(1.0f), n);", "hardtanh"),
        ("y[i] = fminf(fmaxf(x[i], -1.0f), 1.0f);", "hardtanh"),
        (
            "Abs(a, x, n);\n  ReduceSum<float>(a, a, tmp, n);\n  Duplicate(a, s, n);\n  Div(y, x, a, n);",
            "norm",
        ),
        ("void Init(GM_ADDR anchor, GM_ADDR positive, GM_ADDR negative, GM_ADDR y)", "triplet"),
        ("float sp = log1pf(expf(x));", "softplus"),
        ("float sp = logf(1.0f + std::exp(x));", "softplus"),
        ("const float k1 = 0.044715f;", "gelu"),
        ("constexpr float SCALE = 1.0507009873554805f;", "selu"),
        ("constexpr float invPoolElems = 1.0f / 27.0f;", "avg_pool"),
        ("y.SetValue(i, sum * this->outputReciprocal);", "mean"),
    ],
)
def test_each_idiom_finds_its_op(code: str, op: str) -> None:
    assert op in _ops(code)


@pytest.mark.parametrize(
    "code",
    [
        "if (start < 0) { start = 0; }",  # an index clamped at an int zero is not an activation
        "int h = (h0 > 0) ? h0 : 0;",
        "y = x * scale + bias;",
        "float e = expf(x - maxv);",
        "maxv = (v > maxv) ? v : maxv;",
        "Sigmoid(s, x, n); Mul(y, s, w, n);",  # a gate times another tensor is no swish
        "const at::Tensor& h0, const at::Tensor& w_ih",  # a GRU's inputs: no cell state
        "Maxs(y, x, (float)(-1.0f), n); Mins(y, y, (float)(6.0f), n);",  # a clamp to [-1, 6]
    ],
)
def test_code_that_does_no_such_op_shows_none(code: str) -> None:
    assert _ops(code) == {}


def test_a_specific_shape_outweighs_an_incidental_one() -> None:
    # A zero clamp (incidental) and Maxs(..., 0) both show a relu; a leaky relu's slope is its own.
    assert _ops("if (v < 0.0f) v = 0.0f; x = x >= 0.0f ? x : x * slope;") == {
        "relu": True,
        "leaky_relu": False,
    }


CONV_RELU = _reference("        x = torch.relu(x)\n        x = x + self.bias")
CONV_SOFTPLUS = _reference("        x = F.softplus(x)")
RELU = """import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)
def get_inputs():
    return [torch.rand(16, 16384)]
"""


def test_a_handwritten_relu_completes_a_fused_task() -> None:
    # A renamed conv + relu + bias solution: its relu is `if (acc < 0.0f) acc = 0.0f;`, no word says it.
    index = _index({"conv2d_relu_bias_add": CONV_RELU, "conv2d_softplus": CONV_SOFTPLUS})
    row = _conv_kernel(
        "  // stride and padding of the window; in and out channels, kernel size, then the bias\n"
        "  for (i = 0; i < n; ++i) { float acc = y[i]; if (acc < 0.0f) { acc = 0.0f; } y[i] = acc + bias[c]; }"
    )
    match, facts = match_document(row, index)
    assert _task(index, match) == "conv2d_relu_bias_add"
    assert facts.ops["relu"] == "if (acc < 0.0f) { acc = 0.0f;" and facts.incidental == ["relu"]
    # The same code with the clamp on an index is no relu, and places nothing.
    assert match_document(row.replace("acc < 0.0f) { acc = 0.0f", "i < 0) { i = 0"), index)[0] is None


def test_an_incidental_shape_alone_never_claims_a_single_op_task() -> None:
    # A norm's variance guard is a zero clamp: it must not make the row a solution of `relu`.
    index = _index({"relu": RELU})
    norm = (
        "__aicore__ void Stats() { float var = ex2 - mean * mean; if (var < 0.0f) var = 0.0f; y = x * rstd; }"
    )
    assert match_document(norm, index)[0] is None
    facts, _ = candidate_facts(norm)
    assert facts.incidental == ["relu"]


def test_a_specific_shape_offers_a_single_op_task_to_a_judge() -> None:
    # Renamed, a single-op solution says no word of its task: semantics cannot place it offline
    # (its ops and the shape it is specialised to score under the threshold), but a judge is
    # asked about the task its code shape shows. Without the idiom no task is offered.
    softplus = """import torch
import torch.nn.functional as F
class Model(torch.nn.Module):
    def forward(self, x):
        return F.softplus(x)
dim = 16384
def get_inputs():
    return [torch.rand(16, dim)]
"""
    index = _index({"softplus": softplus, "relu": RELU})
    index.judge_candidates = JUDGE_CANDIDATES
    row = "constexpr uint32_t COLS = 16384;\n__aicore__ void Compute() { for (i = 0; i < COLS; ++i) { y[i] = log1pf(expf(x[i])); } }"
    match, _ = match_document(row, index)
    assert match is not None and match.layer == "candidate" and _task(index, match) == "softplus"
    assert match_document(row.replace("log1pf(expf(x[i]))", "x[i] * 2.0f"), index)[0] is None


@pytest.mark.parametrize(
    "code", ["const at::Tensor& w_depthwise", 'TORCH_CHECK(w.dim() == 4, "weight must be OIHW")']
)
def test_words_only_a_convolution_has_show_one(code: str) -> None:
    # A renamed depthwise-separable solution says neither "conv" nor "convolution".
    facts, _ = candidate_facts(code)
    assert "conv" in facts.ops


def test_a_transposed_convolution_abbreviated_is_one() -> None:
    facts, _ = candidate_facts("// ConvT(stride=2) then pool\nfloat v = ConvTPoint(n, c, d, h, w);")
    assert facts.ops["conv_transpose"] in {"convt", "conv_t"}


def test_no_idiom_scans_without_bound() -> None:
    # Hostile rows: an operand written `(\w+)` is tried at every character of a long identifier,
    # each try running to its end (a row of one 100 KB word took 75 s per pattern before), and a
    # `[^;]*` after a call scans to the end of a row without a `;` once per call. Every operand
    # is a bounded word and every gap is bounded (benchmarks/bench_hostile_regex.py times such rows).
    for idiom in IDIOMS:
        pattern = idiom.pattern.pattern
        assert "(\\w+)" not in pattern, idiom
        assert not re.search(r"\[\^[^\]]*\][*+]|\.[*+]\?", pattern.replace("(?s)^(?=.*", "")), idiom
    assert handwritten_ops("a" * 20_000 + " ? 0.0f : v") == []
