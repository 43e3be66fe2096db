"""Ops a renamed solution writes out by hand (`dedup.idioms`): no word says them, the shape of the
code that computes them does. Fixtures are written for these tests."""

from __future__ import annotations

import re

import pytest

from dedup.idioms import IDIOMS, handwritten_ops
from dedup.tasks import JUDGE_CANDIDATES, SEMANTIC_THRESHOLD, candidate_facts, match_document, semantic_score
from tests.test_tasklevel_scoring import _conv_kernel, _index, _reference, _single, _task


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
        (
            "Abs(x, x, n);\n  Add(acc, acc, x, n);\n  ReduceSum<float>(s, acc, w, n);\n"
            "  float absSum = s.GetValue(0);\n  return cols / absSum;",
            "norm",
        ),
        (
            "Mul(sq, x, x, n);\n  Add(acc, acc, sq, n);\n  // 1 / sqrt(mean + eps)\n  Muls(acc, acc, invC, n);\n"
            "  Adds(acc, acc, eps, n);\n  Sqrt(acc, acc, n);\n  Div(acc, one, acc, n);",
            "rms_norm",
        ),
        (
            "Sub(d, pred, tgt, n);\n  Mul(d, d, d, n);\n  Add(acc, acc, d, n);\n}\nReduceSum(r, acc, w, n);\n"
            "Muls(r, r, invTotal, 8);",
            "mse",
        ),
        (
            "AscendC::Mul(t, p, y, n);\n  AscendC::Muls(t, t, -1.0f, n);\n  AscendC::Adds(t, t, 1.0f, n);\n"
            "  AscendC::Relu(t, t, n);",
            "hinge",
        ),
        ("// one plane per core\nfloat var = sq * invCount - mean * mean;", "instance_norm"),
        ("void Init(GM_ADDR anchor, GM_ADDR positive, GM_ADDR negative, GM_ADDR y)", "triplet"),
        ("float sp = log1pf(expf(x));", "softplus"),
        ("float sp = logf(1.0f + std::exp(x));", "softplus"),
        ("const float k1 = 0.044715f;", "gelu"),
        ("constexpr float SCALE = 1.0507009873554805f;", "selu"),
        ("constexpr float invPoolElems = 1.0f / 27.0f;", "avg_pool"),
        ("y.SetValue(i, sum * this->outputReciprocal);", "mean"),
        (
            "uint32_t poolKernelSize;\n  for (k = 0; k < n; ++k) { sumValue += v[k]; countValue += 1.0f; }\n"
            "  y[o] = sumValue / countValue;",
            "avg_pool",
        ),
        ("vmax = (v > vmax) ? v : vmax;", "max"),
        ("if (acc > 0.0f) { acc = 0.0f; }", "min"),
        ("y = v > 0.0f ? 0.0f : v;", "min"),
        ("const float ix = ((gx + 1.0f) * inW - 1.0f) * 0.5f;", "grid_sample"),
        ("float ix = (gx + 1.0f) * 0.5f * (inW - 1);", "grid_sample"),
        (
            "AscendC::Muls(t, x, -1.0f, n);\n  AscendC::PipeBarrier<PIPE_V>();\n  AscendC::Exp(t, t, n);\n"
            "  AscendC::Adds(t, t, 1.0f, n);\n  AscendC::Reciprocal(y, t, n);",
            "sigmoid",
        ),
        ("Exp(e, x, n);\n  // 1 + e\n  Add(e, e, ones, n);\n  Log(y, e, n);", "softplus"),
        (
            "Muls(t, x, -2.0f, n); Exp(e, t, n); Sub(a, one, e, n); Add(b, one, e, n); Div(y, a, b, n);",
            "tanh",
        ),
        (
            "Exp(e, x, n); Add(t, one, e, n); Log(t, t, n);\n"
            "for (i = 0; i < n; ++i) { sp.SetValue(i, x.GetValue(i) > 0.0f ? x.GetValue(i) : 0.0f); }\n"
            "Add(sp, sp, t, n);\n"
            "Muls(t, sp, -2.0f, n); Exp(e, t, n); Sub(a, one, e, n); Add(b, one, e, n); Div(th, a, b, n);\n"
            "Mul(y, x, th, n);",
            "mish",
        ),
        (
            "float t = (acc + 3.0f) * (1.0f / 6.0f);\nif (t > 1.0f) t = 1.0f;\nfloat out = acc * t;",
            "hardswish",
        ),
        ("float e = expf(v - rowMax);", "softmax"),
        ("AscendC::Adds(t, x, -maxv, n);\n  AscendC::Exp(t, t, n);", "softmax"),
        ("Duplicate(m, maxv, n);\n  Sub(e, x, m, n);\n  Exp(e, e, n);", "softmax"),
        ("yGm.SetValue(o, acc0 * invK);", "mean"),
        (
            "for (int i = 0; i < K; ++i) {\n  float v = (p >= 0) ? x[p] : neg_inf;\n  maxv = (v > maxv) ? v : maxv;\n}",
            "max_pool",
        ),
        ("if (acc < minv) minv = acc;", "min"),
        ("const float wx0 = 1.0f - wx1;", "interpolate"),
        ("w0 = 0.75f;\n  w1 = 0.25f;", "interpolate"),
        ("// stats per (N, C) plane over hw\nfloat var = ex2 - mean * mean;", "instance_norm"),
        (
            "for (uint32_t k = 0; k < kKernelSize; ++k) {\n  const int32_t idx = start + k * kDilation;\n"
            "  if (idx < 0) { continue; }\n  maxValue = MaxF32(maxValue, x[idx]);\n}",
            "max_pool",
        ),
        ('TORCH_CHECK(weight.dim() == 3, "weight must be 3D (Cout,Cin,K)");', "conv"),
        ("// w: [out_channels, in_channels / groups, kh, kw]", "conv"),
        (
            "// stats of one (n, group)\nfloat mean = s * invElems; float rstd = Rsqrt1(var + eps);\n"
            "y[i] = (v - mean) * rstd * gamma[c] + beta[c];",
            "group_norm",
        ),
        ("ReduceMax<float>(maxLocal, rowLocal, workLocal, cols, true);  // value and position", "argmax"),
        (
            "AscendC::Adds(y, x, c3, n);\n  AscendC::Maxs(y, y, c0, n);\n  AscendC::Mins(y, y, c6, n);",
            "hardsigmoid",
        ),
        (
            "Muls(y, x, static_cast<float>(1.0 / 6.0), n);\n  Adds(y, y, 0.5f, n);\n  Maxs(y, y, 0.0f, n);\n"
            "  Mins(y, y, 1.0f, n);",
            "hardsigmoid",
        ),
        ("// y = clamp(x + 3, 0, 6) / 6", "hardsigmoid"),
        ('m.def("op", &op, "relu6(x + 3) / 6");', "hardsigmoid"),
        ("AscendC::ReduceMin(m, x, w, n, /*calIndex=*/true);", "argmin"),
        ("Abs(d, x, n);\n  Adds(d, d, 1.0f, n);   // 1 + |x|\n  Div(y, x, d, n);", "softsign"),
        ("out[i] = v / (1.0f + fabsf(v));", "softsign"),
        (
            "Abs(a, a, n);   // |d|\n  Mins(c, a, 1.0f, n);\n  Axpy(a, c, -0.5f, n);\n  Mul(c, c, a, n);",
            "huber",
        ),
        ("float ad = fabsf(d);\nl = ad < 1.0f ? 0.5f * d * d : ad - 0.5f;", "huber"),
        ("GM_ADDR logits, GM_ADDR labels\n  Ln(sums, sums, n);", "cross_entropy"),
        (
            "float mHat = m / (1 - powf(beta1, t));\nfloat vHat = v / (1 - powf(beta2, t));\nSqrt(s, vHat, n);",
            "adam",
        ),
        (
            "for (uint32_t i = 0; i < len; ++i) {\n  acc = acc * xl.GetValue(i);\n  yl.SetValue(i, acc);\n}",
            "cumprod",
        ),
        (
            "Mul(sq, x, x, n);\n  Add(acc, acc, sq, n);\n  ReduceSum(s, acc, w, n);\n  return 1.0f / sqrt(total);",
            "norm",
        ),
        (
            "// statistics over batch and all spatial positions\nfloat var = sq * invCnt - mean * mean;",
            "batch_norm",
        ),
        (
            "// one (n, c) plane\nfloat var = s2 / static_cast<float>(planeElems) - mean * mean;",
            "instance_norm",
        ),
        (
            "class RowNormKernel {\n  Adds(r, r, -m, n);\n  Mul(sq, r, r, n);\n  Adds(v, v, eps, n);\n  Sqrt(v, v, n);\n"
            "  Mul(y, r, gamma, n);\n  Add(y, y, beta, n);",
            "layer_norm",
        ),
        ("float clipLo = -1.0f, clipHi = 1.0f;\nMaxs(d, d, clipLo, n);\nMins(d, d, clipHi, n);", "hardtanh"),
        (
            'this->Attr("clip_min").AttrType(OPTIONAL).Float(-1.0f);\nthis->Attr("clip_max").AttrType(OPTIONAL).Float(1.0f);\n'
            "Mins(y, y, hi, n);",
            "hardtanh",
        ),
        (
            'this->Input("mask");\nSelect(y, bits, x, negInf, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);',
            "masked_fill",
        ),
        (
            "__aicore__ void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y)\ny[i] = mask[i] ? fillValue : x[i];",
            "masked_fill",
        ),
        (
            "AscendC::Muls(y, x, alpha, n);\n  AscendC::Adds(y, y, beta, n);\n  AscendC::Maxs(y, y, 0.0f, n);\n"
            "  AscendC::Mins(y, y, 1.0f, n);",
            "hardsigmoid",
        ),
        # a chain explained line by line: a comment after each call
        (
            "Muls(w, w, -1.0f, len);   // -p * t\n  Adds(w, w, 1.0f, len);  // 1 - p * t\n  Maxs(w, w, 0.0f, len);",
            "hinge",
        ),
        # GELU's exact form, its error function written out
        ("// y = x * 0.5 * (1 + erf(x / sqrt(2)))", "gelu"),
        ("float e = erff(v * 0.70710678f);", "gelu"),
        # AscendC's bitwise And over two boolean tensors read as halves
        ("AscendC::And(o16, a16, b16, n * halves);", "logical_and"),
        (
            "Compare(mask, cur, best, CMPMODE::GT, n);\nSelect(best, mask, cur, best, mode, n);\n"
            "Duplicate(step, (float)r, n);\nSelect(bestIdx, mask, step, bestIdx, mode, n);",
            "argmax",
        ),
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
        "Sigmoid(s, x, n); Mul(y, s, w, n);",  # a gate times another tensor is no swish
        "const at::Tensor& h0, const at::Tensor& w_ih",  # a GRU's inputs: no cell state
        "Maxs(y, x, (float)(-1.0f), n); Mins(y, y, (float)(6.0f), n);",  # a clamp to [-1, 6]
        "y[r] = sum / count;",  # a mean of a row that pools nothing is no average pool
        "// weight: (out_features, in_features)",  # a matmul's weight has no kernel extent
        "// w: [Cout, Cin]",
        "if (end > 0) { end = 0; }",  # an index clamped at an int zero is no min
        "const float c = (x + 1.0f) * scale - 1.0f;",  # an affine step that halves nothing
        "acc0 += x0 * w0 + x1 * w1;",  # a two-tap dot product: its weights need not sum to one
        "w1 = 1.0f - w1;",  # one weight, no pair
        "y = acc * invStd;",  # the reciprocal of a deviation: a normalisation, no mean
        # squares of values less their mean: a variance (a layer norm's), no RMS norm, no error
        "Sub(d, x, meanLocal, n); Mul(d, d, d, n); ReduceSum(v, d, w, n); Adds(v, v, eps, n); Sqrt(v, v, n);",
        "Mul(sq, x, x, n); Adds(v, v, -mean, n); Adds(v, v, eps, n); Sqrt(v, v, n);",
        "Sub(d, x, y, n); Mul(d, d, d, n); ReduceSum(v, d, w, n); Sqrt(v, v, n);",  # a distance
        "float var = ex2 - mean * mean;",  # the moments of a row or a batch: no plane stated
        # the pattern API's last flag is no index (a max reduction's golden solution)
        "ReduceMax<float, AscendC::Pattern::Reduce::RA, true>(y, x, tmp, shape, true);",
        "ReduceMax(m, x, w, n, false);",  # the maximum alone
        "ReduceMax<float>(y, x, tmp, srcShape, true);",  # a shape, then the pattern API's padding flag
        "if (err > worst) { worst = err; worstIdx = i; }",  # a host's check of its results
        "sumLoss *= invBatch;\noutGm.SetValue(0, sumLoss);",  # a total scaled once: no running product
        # a linear interpolation's weight, 1 - min(|d|, 1): no smooth L1
        "Abs(t, d, n);\n  Mins(t, t, 1.0f, n);\n  Muls(t, t, -1.0f, n);\n  Adds(t, t, 1.0f, n);",
        "float beta1 = 0.9f, beta2 = 0.999f;",  # decay rates and no root: a setting
        # a negation shifted and clamped to [0, 1]: a mask of valid positions, no hard sigmoid
        "Muls(m, v, -1.0f, n);\nAdds(m, m, lim, n);\nMins(m, m, 1.0f, n);",
        # a select of two tensors by a condition, no mask input: a where
        "Select(y, cond, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);",
        # a mask input selecting between two tensors: a where, no masked fill
        "__aicore__ void Init(GM_ADDR x, GM_ADDR mask)\nout[i] = mask[j] ? x[i] : y[i];",
        "float lo = -1.0f, hi = 2.0f;\nMins(y, y, hi, n);",  # a clamp to [-1, 2]
        # values centred on their mean (an `Adds` of `-m`), squared and rooted: no RMS norm
        "Adds(r, r, -m, n);\n  Mul(sq, r, r, n);\n  Adds(v, v, eps, n);\n  Sqrt(v, v, n);",
        "// a per-channel scale\nfloat var = ex2 - mean * mean;",  # a channel's scale says no batch
        "if (And(a, b)) { return; }",  # a helper of two arguments: no vector And
        "float p = erff(z);",  # an error function of no input over root two
        # squares added to a running state, rooted and shifted: an Adagrad step, no RMS norm
        "Mul(hNew, g, g, n);  // g^2\nAdd(hNew, hNew, h, n);\nSqrt(d, hNew, n);\nAdds(d, d, eps, n);\n"
        "Div(d, g, d, n);\nAdds(t, t, eps, n);\nSqrt(t, t, n);",
    ],
)
def test_code_that_does_no_such_op_shows_none(code: str) -> None:
    assert _ops(code) == {}


@pytest.mark.parametrize(
    ("code", "op"),
    [
        # a shift by 3 with no 6 beside it is no hard swish
        ("float t = x + 3.0f;\nfloat y = x * t;", "hardswish"),
        # exp(v - max) then a logarithm: a log-sum-exp, no softmax
        ("float e = expf(v - rowMax); s += e; y = logf(s) + rowMax;", "softmax"),
        # a stable softplus is no sigmoid: the chain ends in a Log, not a Reciprocal
        ("Muls(t, x, -1.0f, n); Exp(t, t, n); Adds(t, t, 1.0f, n); Log(y, t, n);", "sigmoid"),
        # 1 + exp(-v) is no hinge: an exponential stands between the negation and the shift
        ("Muls(t, x, -1.0f, n); Exp(t, t, n); Adds(t, t, 1.0f, n); Relu(y, t, n);", "hinge"),
        # a tanh times the input without a softplus before it is no mish
        (
            "Muls(t, x, -2.0f, n); Exp(e, t, n); Sub(a, one, e, n); Add(b, one, e, n); Div(th, a, b, n); Mul(y, x, th, n);",
            "mish",
        ),
        # a doubling then an exponential, divided by nothing
        (
            "Muls(t, x, 2.0f, n); Exp(e, t, n); Mul(y, e, x, n); Add(y, y, b, n); Sub(y, y, c, n); Adds(y, y, 1.0f, n);",
            "tanh",
        ),
    ],
)
def test_a_chain_that_ends_otherwise_is_not_the_op(code: str, op: str) -> None:
    assert op not in _ops(code)


def test_an_exponential_less_the_maximum_is_a_softmax_not_a_sigmoid() -> None:
    assert _ops("float e = expf(x - maxv);") == {"softmax": True}


def test_a_running_maximum_is_a_max_not_a_relu() -> None:
    assert _ops("maxv = (v > maxv) ? v : maxv;") == {"max": True}
    # and a clamp at zero is a relu, no running maximum
    assert _ops("best = fmaxf(best, 0.0f);") == {"relu": True}


def test_a_variance_clamped_at_zero_is_no_relu() -> None:
    # A norm guards its variance against rounding below zero; a batch-norm row had been placed on
    # conv2d_relu_bias_add for it (batch 10).
    for code in ("if (var < 0.0f) { var = 0.0f; }", "v = batchVariance < 0.0f ? 0.0f : batchVariance;"):
        assert "relu" not in _ops(code), code
    assert _ops("if (varied < 0.0f) { varied = 0.0f; }") == {"relu": True}


@pytest.mark.parametrize(
    "code",
    [
        # a convolution's window loop that accumulates: no maximum is kept
        "for (kw = 0; kw < kernelWidth; ++kw) {\n  acc += x[i + kw] * w[kw];\n}",
        # a running maximum over channels, not over a kernel window
        "for (c = 0; c < channels; ++c) {\n  m = (v[c] > m) ? v[c] : m;\n}",
        # the range of a transposed conv's valid taps: a running min and max of positions
        "for (k = 0; k < kw; ++k) {\n  int32_t s = t / sw;\n  sMin = s < sMin ? s : sMin;\n  sMax = s > sMax ? s : sMax;\n}",
    ],
)
def test_a_window_without_a_running_maximum_is_no_max_pool(code: str) -> None:
    assert "max_pool" not in _ops(code)


def test_an_instance_norm_names_its_planes_and_claims_its_task() -> None:
    # Moments over each (sample, channel) plane, named as such: no longer incidental, the shape
    # places a renamed instance norm on its single-op task. Groups or batch statistics said
    # beside it make it the incidental shape again.
    row = (
        "// per-(n, c) plane standardisation\n"
        "float mean = s1 * invCount;\nfloat var = s2 * invCount - mean * mean;\n"
    )
    assert _ops(row) == {"instance_norm": False}
    assert _ops(row.replace("// per-(n, c)", "// per group of channels, per-(n, c)")) == {
        "instance_norm": True
    }
    index = _index({"instance_norm": _single("torch.nn.functional.instance_norm(x)"), "relu": RELU})
    kernel = (
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n'
        + row
        + "  Sqrt(r, r, n);\n}\n"
    )
    assert _task(index, match_document(kernel, index)[0]) == "instance_norm"


def test_a_normalisation_without_groups_is_no_group_norm() -> None:
    # A layer norm's shape: the statistics of a row, no group of channels.
    assert "group_norm" not in _ops("float mean = s * invCols;\ny[i] = (x[i] - mean) * rstd * gamma[i];")


GRID_SAMPLE = """import torch
import torch.nn.functional as F
class Model(torch.nn.Module):
    def forward(self, x, grid):
        return F.grid_sample(x, grid, mode="bilinear", align_corners=False)
def get_inputs():
    return [torch.rand(8, 32, 64, 64), torch.rand(8, 64, 64, 2)]
"""


def test_a_grid_sample_blending_its_neighbours_does_no_extra_work() -> None:
    # A grid sample interpolates between the four pixels around each point: the blending weights
    # (`wx0 = 1.0f - wx1`, an interpolation) are how a grid sample is done, not work beyond it.
    index = _index({"grid_sample_random_warp": GRID_SAMPLE})
    row = (
        'this->Input("x"); this->Input("grid");\n'
        "float ix = ((gx + 1.0f) * inW - 1.0f) * 0.5f; float wx1 = ix - x0; float wx0 = 1.0f - wx1;"
    )
    facts, words = candidate_facts(row)
    assert {"grid_sample", "interpolate"} <= facts.ops.keys()
    scored = semantic_score(index, 0, facts, words, frozenset(facts.values))
    plain, plain_words = candidate_facts(row.replace("float wx0 = 1.0f - wx1;", ""))
    assert "interpolate" not in plain.ops
    assert scored.score == semantic_score(index, 0, plain, plain_words, frozenset(plain.values)).score


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
    # A norm's guard of its second moment is a zero clamp: it must not make the row a solution of
    # `relu` (named `var`, it is not read as a relu at all: test_a_variance_clamped_at_zero_is_no_relu).
    index = _index({"relu": RELU})
    norm = "__aicore__ void Stats() { float d = ex2 - mean * mean; if (d < 0.0f) d = 0.0f; y = x * rstd; }"
    assert match_document(norm, index)[0] is None
    facts, _ = candidate_facts(norm)
    assert facts.incidental == ["relu", "avg_pool"]  # and its mean is no average pool of its own


def test_a_specific_shape_places_a_single_op_row_whose_words_do_not() -> None:
    # Renamed, a single-op solution says no word of its task: its ops and the shape it is
    # specialised to score under the threshold, but the op its code shape shows is explained by
    # one task only (`dedup.tasks._sole_explanation`). Without the idiom no task is named.
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
    row = "constexpr uint32_t COLS = 16384;\n__aicore__ void Compute() { for (i = 0; i < COLS; ++i) { y[i] = log1pf(expf(x[i])); } }"
    # Offline, the pre-test spares rows with no op word: this one is not read (a known limit;
    # reading every row's code shapes cost more than it found on dev, README).
    assert match_document(row, index)[0] is None
    index.judge_candidates = JUDGE_CANDIDATES  # with a judge, every row is read
    match, _ = match_document(row, index)
    assert match is not None and _task(index, match) == "softplus" and match.level == "op"
    assert match.score < SEMANTIC_THRESHOLD and match.confidence == "low"
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


@pytest.mark.parametrize(
    "row",
    [
        "a" * 20_000 + " ool um for roup in ax pool group",  # every screen, after one long word
        "for (i = 0; i < kernel; ++i) { " * 600,  # window loops that keep no maximum
        "pool " + "sumA / " * 3000,  # sums divided by nothing
        "group " + "(v - mean) * " * 1500,  # normalisations without a reciprocal
        "Cout, Cin, " * 2000,  # layouts without a kernel extent
        "hw " + "e - mean * " * 2000,  # moments without the mean's square
        "w0 = 1.0f - " * 2000,  # weights without their pair
        "ReduceSum " + "Sub(d, x, y); " * 3000,  # differences never squared
        "Mul(s, x, x, n); " + "Adds(v, v, eps, n); " * 3000,  # an epsilon added, no root taken
    ],
)
def test_hostile_rows_of_the_window_and_norm_shapes_show_none(row: str) -> None:
    # Each row repeats the opening of a shape many times without its end: the bounded gaps give
    # up after at most 800 characters per opening (benchmarks: 100 KB of window loops, 0.13 s).
    assert handwritten_ops(row) == []


def test_a_squared_error_summed_places_its_loss_renamed() -> None:
    # A renamed mean-squared-error kernel states no task word: its vector calls (a difference,
    # squared, summed) show the loss, and no other task explains them. Before the idiom, its sum
    # and scale read as a mean, i.e. an average pool, and it was placed nowhere. (The pre-test
    # reads it for its `else`, as it reads nearly every real kernel: README, a known limit.)
    mse = """import torch
class Model(torch.nn.Module):
    def forward(self, predictions, targets):
        return torch.mean((predictions - targets) ** 2)
def get_inputs():
    return [torch.rand(128, 4096), torch.rand(128, 4096)]
"""
    pool = """import torch
class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = torch.nn.AvgPool1d(kernel_size=4)
    def forward(self, x):
        return self.pool(x)
def get_inputs():
    return [torch.rand(16, 32, 128)]
"""
    index = _index({"mse_loss": mse, "average_pooling_1d": pool, "relu": RELU})
    row = """
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR a, GM_ADDR b, GM_ADDR out) {
  for (uint32_t i = 0; i < loops; ++i) {
    if (len == tileLength) { CopyIn(i); } else { CopyInPadded(i, len); }
    AscendC::Sub(d, aLocal, bLocal, len);
    AscendC::Mul(d, d, d, len);
    AscendC::Add(acc, acc, d, len);
  }
  AscendC::ReduceSum(res, acc, work, tileLength);
  // every core adds its share of the mean
  AscendC::Muls(res, res, invTotal, 8);
}
"""
    assert _task(index, match_document(row, index)[0]) == "mse_loss"
    unsquared = row.replace("AscendC::Mul(d, d, d, len);", "")
    assert _task(index, match_document(unsquared, index)[0]) != "mse_loss"


def _activation(call: str) -> str:
    return f"""import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.{call}(x)
def get_inputs():
    return [torch.rand(16, 16384)]
"""


def test_a_long_form_of_an_ops_name_is_read_as_the_short_one() -> None:
    # An operator library spells out what the benchmark abbreviates: `ExpLinearUnitCustom` is an
    # ELU. Its long form shows the op and says the task's word, so the renamed row (its own name
    # the only one left) is placed; without `LONG_FORMS` no word of it says "elu".
    index = _index({"elu": _activation("elu"), "selu": _activation("selu"), "relu": RELU})
    row = """// y = max(x, 0) + alpha * (exp(min(x, 0)) - 1)
class ExpLinearUnitKernel {
  __aicore__ inline void Compute(uint32_t n) {
    AscendC::Mins(t, x, 0.0f, n); AscendC::Exp(t, t, n); AscendC::Adds(t, t, -1.0f, n);
    AscendC::Muls(t, t, alpha, n); AscendC::Maxs(y, x, 0.0f, n); AscendC::Add(y, y, t, n);
  }
};"""
    match, facts = match_document(row, index)
    assert facts.ops["elu"] == "exp_linear_unit"
    assert _task(index, match) == "elu"
    # said in prose as well: the short word joins the row's words
    assert "elu" in candidate_facts("// an exponential linear unit, elementwise")[1]
    # a divergence named by its other names: Kullback-Leibler, relative entropy
    for said in ("// loss = batch mean relative entropy", "class KullbackLeiblerKernel {};"):
        facts, words = candidate_facts(said)
        assert "kl_div" in facts.ops and {"kl", "div"} <= words, said
    # an op said in the plural, or as an "average pool"
    for said, op in (("// two back-to-back 2x2x2 average pools", "avg_pool"), ("// max pools", "max_pool")):
        assert op in candidate_facts(said)[0].ops, said
    # LAMB by the ratio of norms that scales its Adam step
    facts, words = candidate_facts("float trust_ratio = wNorm / (uNorm + eps);")
    assert "lamb" in facts.ops and "lamb" in words


@pytest.mark.parametrize(
    ("comment", "selects"),
    [
        ("// out = max(a[i], b[j]) where the W stride is 1 or 0", False),
        ("// a true division keeps it exact, where multiplying by a reciprocal would not", False),
        ("// zeroed where x is negative", False),
        ("// Each output corresponds to (b, i) where:\n//   b < batch", False),
        ("// out = torch.where(cond, x, y)", True),
        ("// where(cond, a, b) with cond broadcast", True),
    ],
)
def test_english_where_opening_a_clause_selects_nothing(comment: str, selects: bool) -> None:
    # A broadcast max or division explained in prose had been placed on `where_broadcast`.
    facts, _ = candidate_facts(comment + "\nAscendC::Max(y, a, b, n);")
    assert ("where" in facts.ops) is selects


def test_a_hard_sigmoid_written_out_places_its_renamed_row() -> None:
    # relu6(x + 3) / 6 in AscendC's calls, its constants named: no word says hard sigmoid, and no
    # op word at all passes the pre-test but the clamp chain (`dedup.tasks._may_match`).
    index = _index(
        {
            "hardsigmoid": _single("torch.nn.functional.hardsigmoid(x)"),
            "hardswish": _single("torch.nn.functional.hardswish(x)"),
        }
    )
    row = (
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n'
        "  AscendC::Adds(yLocal, xLocal, c3, n);\n  AscendC::Maxs(yLocal, yLocal, c0, n);\n"
        "  AscendC::Mins(yLocal, yLocal, c6, n);\n  AscendC::Muls(yLocal, yLocal, inv6, n);\n}\n"
    )
    match, _ = match_document(row, index)
    assert _task(index, match) == "hardsigmoid"
    # Its input times it is a hard swish: the hard sigmoid is its step, not another task.
    assert "hardsigmoid" not in _ops(
        "float t = fminf(fmaxf(x + 3.0f, 0.0f), 6.0f); y = x * clamp(x + 3, 0, 6) / 6;"
    )


def test_an_optimizer_step_no_word_names_passes_the_pre_test_and_is_placed() -> None:
    # A renamed Adam step has no strong op word left in it; its two decay rates and its root
    # show the op, and the pre-test (`dedup.tasks._may_match`) lets the row through for them.
    adam = """import torch
class Model(torch.nn.Module):
    def forward(self, p, g, m, v):
        return torch.optim.Adam
"""
    index = _index({"adam": adam, "relu": _single("torch.relu(x)")})
    row = (
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR p, GM_ADDR g, GM_ADDR m, GM_ADDR v) {\n'
        "  float b1 = beta1, b2 = beta2;\n  Muls(m, m, b1, n);\n  Muls(v, v, b2, n);\n"
        "  Sqrt(s, v, n);\n  Adds(s, s, eps, n);\n  Div(u, m, s, n);\n  Sub(p, p, u, n);\n}\n"
    )
    facts, _ = candidate_facts(row)
    assert "adam" in facts.ops
    match, _ = match_document(row, index)
    assert match is not None and _task(index, match) == "adam"


def test_a_logical_and_no_word_names_passes_the_pre_test_and_is_placed() -> None:
    # A renamed logical and: "and" is English, never an op's word; AscendC's And call over a
    # destination, two sources and a count does the op (fresh rows: three left unplaced).
    index = _index(
        {"logic_and_broadcast": _single("torch.logical_and(x, y)"), "relu": _single("torch.relu(x)")}
    )
    row = (
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR a, GM_ADDR b, GM_ADDR y) {\n'
        "  AscendC::DataCopy(a16, aGm, n);\n  AscendC::And(o16, a16, b16, n / 2);\n  AscendC::DataCopy(yGm, o16, n);\n}\n"
    )
    match, _ = match_document(row, index)
    assert match is not None and _task(index, match) == "logic_and_broadcast"
    assert match_document(row.replace("And(", "Copy("), index)[0] is None


def test_one_explanation_is_an_op_never_a_block_of_layers() -> None:
    # A conv, a batch norm and a scale, renamed: the conv its weight's layout shows and a word
    # says. A block that requires only its conv (its other layers are weak or helpers) explains
    # that too, but its forward does more: it is no single op's task (a wrong placement before).
    block = """import torch
import torch.nn as nn
class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.bn = nn.BatchNorm2d(8)
    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))
"""
    index = _index({"conv_block": block, "relu": _single("torch.relu(x)")})
    row = (
        "// w: [out_channels, in_channels, kh, kw]\nvoid op_zulu() { conv_window(acc, x, w); }\n"
        "// batch norm folded: y = (acc - mean) * rstd\n"
    )
    match, facts = match_document(row, index)
    assert "conv" in facts.handwritten
    assert _task(index, match) != "conv_block"


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("// batch normalisation computed from the current batch", "batch_norm"),
        ("// then group normalisation over 8 groups", "group_norm"),
        ("class ConvBatchStatNormScale {", "batch_norm"),  # the statistics of the current batch
        ("// normalised with batch statistics (training mode)", "batch_norm"),
        ("class PiecewiseSigmoidKernel {", "hardsigmoid"),  # a hard sigmoid's other name
    ],
)
def test_a_norm_spelt_the_british_way_or_by_its_statistics_is_read(text: str, op: str) -> None:
    facts, _ = candidate_facts(text)
    assert op in facts.ops


@pytest.mark.parametrize(
    ("text", "layer"),
    [
        ("// Linear chunk per block (ceil-div), then align", False),
        ("// linear output elements handled per block", False),
        ("uint32_t planeLinear = oh * w_out + ow;", False),
        ("uint64_t linearIdx = blockIdx * tile + i;", False),
        ("// Stable, power-of-two-ish blockDim", False),
        ("self.fc = nn.Linear(4096, 10)", True),
        ("// Linear layer, then relu", True),
        ("q_linear(x)", True),
    ],
)
def test_linear_as_a_flat_layout_is_no_layer(text: str, layer: bool) -> None:
    # An EvoKernel pooling kernel's "linear chunk" and `planeLinear` had read as a matmul: extra
    # work that kept it from its task.
    ops = candidate_facts(text)[0].ops
    assert ("matmul" in ops) is layer
    assert "pow" not in ops
