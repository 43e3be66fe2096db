"""Single-op tasks of a weak op: reducing along a dimension (`sum_reduction_over_a_dimension`)
and broadcasting (`max_broadcast`). Their one op is a word every tiling uses, so a row claims
them only in the form the task names (a reduction it performs by AscendC's reduction API, a
running compare or a reduction it names; a broadcast it names beside AscendC calls of the op)
and doing nothing else (`dedup.weak_tasks`). Fixtures are written for these tests."""

from __future__ import annotations

import pytest

from dedup.structure import structural_fit
from dedup.tasks import _may_match, match_document
from dedup.weak_tasks import elementwise_ops, performed_reductions
from tests.test_tasklevel_scoring import _index, _task


def _reduction(op: str) -> str:
    return f"""import torch
import torch.nn as nn

class Model(nn.Module):
    \"\"\"Reduces the input along one dimension.\"\"\"
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.{op}(x, dim=self.dim){"[0]" if op in ("max", "min") else ""}

batch_size = 16
dim1 = 256
dim2 = 256

def get_inputs():
    return [torch.rand(batch_size, dim1, dim2)]

def get_init_inputs():
    return [1]
"""


SOFTMAX = """import torch
class Model(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=1)
"""
TASKS = {f"{op}_reduction_over_a_dimension": _reduction(op) for op in ("sum", "max", "min", "mean")}


def _kernel(body: str) -> str:
    return f"""
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {{
  uint32_t tile = std::min(rest, tileLength);
{body}
}}
"""


@pytest.mark.parametrize(
    ("body", "task"),
    [
        (
            "  AscendC::ReduceMax<float>(yLocal, xLocal, tmp, srcShape, true);",
            "max_reduction_over_a_dimension",
        ),
        ("  WholeReduceSum(yLocal, xLocal, mask, repeat, 1, 1, 8);", "sum_reduction_over_a_dimension"),
        (
            "  for (uint32_t r = 0; r < rows; ++r) { float v = xGm.GetValue(r); m = (v < m) ? v : m; }",
            "min_reduction_over_a_dimension",
        ),
        ("  // sum reduce over dim=1, keepdim\n  acc += xGm.GetValue(i);", "sum_reduction_over_a_dimension"),
    ],
)
def test_a_row_that_only_reduces_is_placed_on_its_reduction(body: str, task: str) -> None:
    index = _index({**TASKS, "softmax": SOFTMAX})
    row = _kernel(body) + MODEL_NEW
    match, _ = match_document(row, index)
    assert _task(index, match) == task and match is not None and match.level == "op"
    assert match.matched_ops[0] != f"{task.split('_')[0]} ({task.split('_')[0]})", "the bare word was shown"


def test_a_reduction_inside_other_work_claims_no_reduction_task() -> None:
    # An L2 normalisation sums squares along the dimension, then takes a root and divides.
    index = _index({**TASKS, "softmax": SOFTMAX})
    norm = _kernel(
        "  Mul(sq, xLocal, xLocal, n); ReduceSum(s, sq, tmp, n);\n  Sqrt(s, s, 1); Div(yLocal, xLocal, s, n);"
    )
    assert set(performed_reductions(norm)) == {"sum"}
    assert match_document(norm + MODEL_NEW, index)[0] is None
    # The tiling's `std::min` and a sum of lengths are no reduction the row performs.
    assert performed_reductions(_kernel("  uint32_t total = a + b; // the sum of the lengths")) == {}


def test_a_renamed_kernel_that_only_reduces_is_placed_by_its_form() -> None:
    # Renamed and without a model, a reduction kernel's words no longer reach the threshold; the
    # one task the form it performs names is placed (basis "form"). A sparse matrix-vector product
    # reduces too, after a product of two tensors: no reduction task.
    index = _index({**TASKS, "softmax": SOFTMAX})
    row = _kernel(
        "  AscendC::ReduceMin<float>(yLocal, xLocal, tmp, cols);\n  AscendC::Adds(yLocal, yLocal, 0.0f, 1);"
    )
    match, _ = match_document(row, index)
    assert (
        _task(index, match) == "min_reduction_over_a_dimension"
        and match is not None
        and match.basis == "form"
    )
    spmv = _kernel(
        "  AscendC::Mul(prod, vals, xg, nnz);\n  AscendC::ReduceSum<float>(yLocal, prod, tmp, nnz);"
    )
    assert match_document(spmv, index)[0] is None
    # so is a product accumulated in place (a matrix-vector product's `MulAddDst`), then summed
    gemv = _kernel(
        "  AscendC::MulAddDst(part, rowLocal, xLocal, n);\n  AscendC::ReduceSum<float>(yLocal, part, tmp, n);"
    )
    assert match_document(gemv, index)[0] is None
    # and a maximum over a window a stride moves is a pooling's, not a reduction of a dimension
    sliding = row.replace("ReduceMin", "ReduceMax").replace("tmp, cols", "tmp, window")
    assert _task(index, match_document(sliding, index)[0]) == "max_reduction_over_a_dimension"
    strided = sliding.replace("window);", "window);\n  src += tiling.stride;")
    assert match_document(strided, index)[0] is None


def test_the_reductions_a_row_performs_are_read_from_calls_compares_and_names() -> None:
    assert performed_reductions("AscendC::ReduceMax<float>(y, x, t, s, true);") == {"max": "ReduceMax"}
    assert performed_reductions("BlockReduceMin(y, x, 1, mask, 1, 1, 8);") == {"min": "BlockReduceMin"}
    assert performed_reductions("best = (v > best) ? v : best;") == {"max": "best = (v > best) ? v : best"}
    assert performed_reductions("class KernelSumReductionDim1 {};") == {"sum": "SumReduction"}
    assert performed_reductions("// reduce mean over the last dim") == {"mean": "reduce mean"}
    assert performed_reductions("uint32_t reduceSize = 8; argmax reduce") == {}


# A submission's `ModelNew` giving its reference's parameter a default: `dim: int = 1`.
MODEL_NEW = """
// model_src
import torch
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim
"""


def test_a_constructor_giving_its_references_parameter_a_default_fits_its_task() -> None:
    # Another task has the row's constructor as it is (`dim: int = 1`): the reduction tasks,
    # whose `dim: int` the harness fills all the same, fit too.
    with_default = SOFTMAX.replace(
        "def forward", "def __init__(self, dim: int = 1):\n        super().__init__()\n\n    def forward"
    )
    index = _index({**TASKS, "softmax_with_default": with_default})
    match, facts = match_document(_kernel("  ReduceSum(yLocal, xLocal, tmp, n);") + MODEL_NEW, index)
    assert _task(index, match) == "sum_reduction_over_a_dimension" and match is not None
    assert structural_fit(index, match.item, facts) == ["constructor (dim:int) with defaults dim:int=1"]


def _broadcast(expression: str, inputs: str = "a, b") -> str:
    return f"""import torch
class Model(torch.nn.Module):
    def forward(self, {inputs}):
        return {expression}

def get_inputs():
    return [torch.rand(64, 1, 512), torch.rand(64, 128, 512)]
"""


BROADCASTS = {
    "max_broadcast": _broadcast("torch.maximum(a, b)"),
    "clamp_broadcast": _broadcast("torch.clamp(x, lo, hi)", "x, lo, hi"),
    "power_broadcast": _broadcast("torch.pow(a, b)"),
}


@pytest.mark.parametrize(
    ("calls", "task"),
    [
        ("AscendC::Max(yLocal, aLocal, bLocal, n);", "max_broadcast"),
        ("AscendC::Max(t, xLocal, loLocal, n); AscendC::Min(yLocal, t, hiLocal, n);", "clamp_broadcast"),
        (
            "AscendC::Ln(t, aLocal, n); AscendC::Mul(t, t, bLocal, n); AscendC::Exp(yLocal, t, n);",
            "power_broadcast",
        ),
    ],
)
def test_a_row_that_only_broadcasts_an_op_is_placed_on_its_broadcast_task(calls: str, task: str) -> None:
    index = _index({**BROADCASTS, "softmax": SOFTMAX})
    said = task.split("_")[0]  # a row's binding says "Broadcast power", as real ones do
    row = _kernel(f"  // {said} of operands expanded by broadcast_tensors on the host\n  {calls}")
    match, _ = match_document(row, index)
    assert _task(index, match) == task and match is not None and match.level == "op"
    assert match_document(row.replace("broadcast_tensors", "expand"), index)[0] is None


def test_a_broadcast_beside_a_bare_op_word_claims_no_broadcast_task() -> None:
    # A tile header that broadcasts a multiply; "max" only in its tiling (`std::max`).
    index = _index({**BROADCASTS, "softmax": SOFTMAX})
    tile = _kernel(
        "  // TileBroadcastMul\n  uint32_t m = std::max(rows, 1u);\n  AscendC::Mul(yLocal, aLocal, bLocal, n);"
    )
    assert elementwise_ops(tile) == {}
    assert match_document(tile, index)[0] is None


ARITHMETIC = {
    "division_broadcast": _broadcast("a / b"),
    "add_bias_broadcast": _broadcast("x + bias", "x, bias"),
    "softmax": SOFTMAX,
}


def test_a_row_whose_vector_calls_do_one_arithmetic_op_is_placed_on_the_task_of_that_op() -> None:
    # The task requires no op its words could show (division is arithmetic every kernel does):
    # the row's vector calls show it.
    index = _index(ARITHMETIC)
    row = _kernel(
        "  // division broadcast: b expanded along the rows\n  AscendC::Div(yLocal, aLocal, bLocal, n);"
    )
    match, _ = match_document(row, index)
    assert _task(index, match) == "division_broadcast" and match is not None and match.level == "op"
    assert match.matched_ops == ["div (Div)"]
    # Two arithmetic ops (a bias added, then a division) are some other task.
    two = row.replace("AscendC::Div(", "AscendC::Adds(t, aLocal, bias, n); AscendC::Div(")
    assert match_document(two, index)[0] is None
    # So is one beside other work (an exponent).
    assert (
        match_document(row.replace("AscendC::Div(", "AscendC::Exp(t, aLocal, n); AscendC::Div("), index)[0]
        is None
    )
    # A weak op only a comment names is no other work: "clip" says clamp, the row does none.
    clipped = row.replace("AscendC::Div(", "// clip the last core's length to the real size\n  AscendC::Div(")
    assert _task(index, match_document(clipped, index)[0]) == "division_broadcast"


SCALED = """import torch
class Model(torch.nn.Module):
    \"\"\"Multiplies a matrix by a scalar.\"\"\"
    def forward(self, A, s: float):
        return A * s

def get_inputs():
    return [torch.rand(64, 32), 3.14]
"""


def test_one_tensor_input_and_a_scalar_attribute_place_the_scalar_task_of_a_shared_form() -> None:
    # Both tasks multiply; a renamed row that multiplies its one input by an attribute (`Muls`)
    # says too few of either's words to be placed by them: its one tensor input tells them apart.
    index = _index({"elmentwise_mul_broadcast": _broadcast("a * b"), "matrix_scalar_multiplication": SCALED})
    definition = '  this->Input("x");\n  this->Output("y");\n  this->Attr("factor").Float();\n'
    row = definition + _kernel("  // broadcast the factor\n  AscendC::Muls(yLocal, xLocal, factor, n);")
    match, _ = match_document(row, index)
    assert (
        _task(index, match) == "matrix_scalar_multiplication" and match is not None and match.basis == "form"
    )
    # Two tensor inputs multiplied are no scalar form: neither task is claimed by it.
    two = row.replace('this->Input("x");', 'this->Input("x");\n  this->Input("w");')
    assert (
        match_document(two.replace("Muls(yLocal, xLocal, factor", "Mul(yLocal, xLocal, wLocal"), index)[0]
        is None
    )


def test_a_row_that_does_arithmetic_is_read_in_full_only_when_it_says_a_word_of_those_tasks() -> None:
    # Most kernels call `Add` or `Mul`: one that says no other word of the arithmetic tasks
    # (`division`, `broadcast`, `bias`) cannot reach their threshold and skips the word scan.
    index = _index(ARITHMETIC)
    plain = _kernel("  // elementwise\n  AscendC::Div(yLocal, aLocal, bLocal, n);")
    assert not _may_match(plain, index, ())
    assert _may_match(plain.replace("elementwise", "division broadcast"), index, ())
    assert match_document(plain, index)[0] is None


def test_a_running_sum_read_value_by_value_is_a_performed_reduction() -> None:
    assert performed_reductions("  acc += xGm.GetValue(base + r * inner);") == {
        "sum": "acc += xGm.GetValue(base + r * inner);"
    }
    # a product summed is a dot product, and a sum of lengths no reduction of a tensor
    assert performed_reductions("  sum += aGm.GetValue(i) * bGm.GetValue(i);") == {}
    assert performed_reductions("  total += tileLength;") == {}
    # Renamed, a kernel that sums along a dimension and scales by the reciprocal of its length is
    # the mean reduction: its form places it.
    index = _index({**TASKS, "softmax": SOFTMAX})
    row = _kernel(
        "  float sum = 0.0f;\n  for (uint32_t r = 0; r < R; ++r) { sum += xGm.GetValue(o + r * inner); }\n"
        "  yGm.SetValue(o, sum * invReduce);  // over dim 1"
    )
    match, _ = match_document(row, index)
    assert (
        _task(index, match) == "mean_reduction_over_a_dimension"
        and match is not None
        and match.basis == "form"
    )


def _bias_add(view: str, x_shape: str, bias_shape: str) -> str:
    return f"""import torch
class Model(torch.nn.Module):
    def forward(self, x, bias):
        return x + bias{view}

def get_inputs():
    return [torch.rand({x_shape}), torch.rand({bias_shape})]
"""


def test_the_rank_a_row_checks_its_input_has_places_it_on_the_one_form_taking_that_rank() -> None:
    # Both tasks add a bias; a renamed row adds it with `Adds`, one channel at a time. The rank it
    # checks its input has (`x.dim() == 4`) is the task whose input is a plane of channels.
    index = _index(
        {
            "add_bias_broadcast": _bias_add("", "4, 2048", "2048"),
            "add_bias_four_dim_broadcast": _bias_add(".view(1, -1, 1, 1)", "8, 64, 16, 16", "64"),
        }
    )
    row = _kernel("  // add this channel's bias to its plane\n  AscendC::Adds(yLocal, xLocal, biasValue, n);")
    assert match_document(row, index)[0] is None  # neither's words, both forms: no placement
    for rank, task in ((4, "add_bias_four_dim_broadcast"), (2, "add_bias_broadcast")):
        match, _ = match_document(row + f'\nTORCH_CHECK(x.dim() == {rank}, "x: rank {rank}");\n', index)
        assert _task(index, match) == task and match is not None and match.basis == "form"
