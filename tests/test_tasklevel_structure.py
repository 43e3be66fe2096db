"""Structure a renamed solution still repeats: its model's constructor and the input shapes its
binding pins. A benchmark's harness builds a solution's `ModelNew` with the task's
`get_init_inputs` and feeds it `get_inputs`, so a solution written for one of several siblings
(the same computation, a square or an asymmetric kernel) repeats that sibling's constructor and,
when it is specialised, its input shapes. Semantics uses them to break a tie its words cannot.
Fixtures are written for these tests."""

from __future__ import annotations

import pytest

from dedup.structure import structural_fit
from dedup.tasks import JUDGE_CANDIDATES, SEMANTIC_THRESHOLD, candidate_facts, match_document, semantic_score
from dedup.ties import parameters_apart, plain_apart
from parsers.torchref import read_reference
from schemas.taskops import _INIT_PARAMETERS, module_constructors
from tests.test_tasklevel_judge import PLAIN_CONV
from tests.test_tasklevel_scoring import (
    HARDTANH_SCALE,
    TIED_BODY,
    TIED_SIBLINGS,
    _conv_kernel,
    _index,
    _reference,
    _single,
    _task,
)

# Siblings: one computation; the square one takes `kernel_size: int` and a square input, the
# asymmetric one `kernel_size: tuple` and a wider input. A renamed row says neither word.
SQUARE = (
    _reference("")
    .replace("kernel_size):", "kernel_size: int):")
    .replace("class Model", "# square kernel\nclass Model")
)
ASYMMETRIC = (
    _reference("")
    .replace("kernel_size):", "kernel_size: tuple):")
    .replace("torch.rand(10, 6, 30, 30)", "torch.rand(10, 6, 30, 40)")
    .replace("class Model", "# asymmetric kernel\nclass Model")
)
SIBLINGS = {"conv_standard_2d_square_kernel": SQUARE, "conv_standard_2d_asymmetric_kernel": ASYMMETRIC}

MODEL_NEW = """
// model_src
import torch
import custom_ops_lib


class ModelNew(torch.nn.Module):
    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size: {annotation},  # the harness passes the task's init inputs
    ) -> None:
        super().__init__()

    def forward(self, x):
        return custom_ops_lib.op_zulu_custom(x)
"""


def test_constructors_and_input_shapes_are_read() -> None:
    text = """import torch
class Model(torch.nn.Module):
    def __init__(self, dim: int, kernel: tuple = (3, 5), *args, eps: float = 1e-5) -> None:
        super().__init__()
    def forward(self, x):
        return torch.sum(x, dim=self.dim)
batch = 4
height = width = 32
D, H, W = 2, 8, 16
shape = (7, 9)
def get_inputs():
    return [torch.rand(batch, 3, height, width), torch.randn(batch * 2, D, H, W), torch.rand(batch, *shape)]
"""
    sig = read_reference("sum_over_dim", text)
    assert sig.constructor == ["dim:int", "kernel:tuple=(3,5)", "eps:float=1e-5"]
    assert sig.input_dims == [[4, 3, 32, 32], [8, 2, 8, 16], [4, 7, 9]]
    assert module_constructors(MODEL_NEW.format(annotation="tuple")) == {
        "ModelNew": ("in_channels", "out_channels", "kernel_size:tuple")
    }
    facts, _ = candidate_facts(
        "TORCH_CHECK(x.size(0) == 4 && x.size(1) == 7 && x.size(2) == 9); y.size(1) == 2;"
    )
    assert facts.pinned_shapes == [[4, 7, 9]], "a partly checked tensor is not a pinned shape"


@pytest.mark.parametrize(
    ("annotation", "task"),
    [("int", "conv_standard_2d_square_kernel"), ("tuple", "conv_standard_2d_asymmetric_kernel")],
)
def test_the_constructor_a_row_repeats_breaks_a_tie_between_siblings(annotation: str, task: str) -> None:
    index = _index(SIBLINGS)
    assert match_document(PLAIN_CONV, index)[0] is None  # the words alone place it on neither
    document = PLAIN_CONV + MODEL_NEW.format(annotation=annotation)
    match, facts = match_document(document, index)
    assert _task(index, match) == task
    assert match is not None and match.layer == "semantics"
    assert structural_fit(index, match.item, facts) == [
        f"constructor (in_channels, out_channels, kernel_size:{annotation})"
    ]


def test_an_input_shape_the_binding_pins_breaks_a_tie_between_siblings() -> None:
    index = _index(SIBLINGS)
    pins = 'TORCH_CHECK(x.size(0) == 10 && x.size(1) == 6 && x.size(2) == 30 && x.size(3) == 40, "shape");\n'
    match, facts = match_document(pins + PLAIN_CONV, index)
    assert _task(index, match) == "conv_standard_2d_asymmetric_kernel" and match.tied == []
    assert structural_fit(index, match.item, facts) == ["input shape [10, 6, 30, 40]"]
    # A shape neither sibling is run with breaks nothing: the row is flagged with both named.
    match, _ = match_document(pins.replace("== 40", "== 50") + PLAIN_CONV, index)
    assert match is not None and len(match.tied) == 1


def test_sizes_a_check_requires_equal_settle_a_tie_between_siblings() -> None:
    # The square sibling is run on a 30 x 30 input, the asymmetric one on 30 x 40.
    index = _index(SIBLINGS)
    row = 'TORCH_CHECK(x.size(0) > 0 && x.size(1) == 6 && x.dim() == 4, "NCHW");\n' + PLAIN_CONV
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    square = 'TORCH_CHECK(x.size(2) == x.size(3), "input must be square");\n'
    match, _ = match_document(square + row, index)
    assert _task(index, match) == "conv_standard_2d_square_kernel" and match.tied == []
    # The output's sizes, or the weight's against the input's, say nothing of the input.
    for other in (
        'TORCH_CHECK(y.size(2) == y.size(3), "out");\n',
        'TORCH_CHECK(x.size(1) == weight.size(1), "c");\n',
    ):
        match, _ = match_document(other + row, index)
        assert match is not None and len(match.tied) == 1, other


@pytest.mark.parametrize(
    ("said", "task"),
    [
        ("// checked on x: 10 x 6 x 30 x 40 (N, C, H, W)\n", "conv_standard_2d_asymmetric_kernel"),
        ("x = torch.rand(10, 6,\n                30, 30)\n", "conv_standard_2d_square_kernel"),
    ],
)
def test_an_input_shape_the_row_writes_out_settles_a_tie_between_siblings(said: str, task: str) -> None:
    index = _index(SIBLINGS)
    # a binding that checks the input's rank: the siblings tie on it
    row = 'TORCH_CHECK(x.size(0) > 0 && x.size(1) == 6 && x.dim() == 4, "NCHW");\n' + PLAIN_CONV
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    match, _ = match_document(said + row, index)
    assert _task(index, match) == task and match is not None and match.tied == []
    # said in the row's prose beside its code, just as well
    match, _ = match_document(row, index, prose=said)
    assert _task(index, match) == task and match is not None and match.tied == []
    # a shape with a dimension more or less, or run into another number, is no shape of theirs
    for other in ("// 10 x 6 x 30 x 405\n", "// 1.5 x 10 x 6 x 30 x 40 x 2\n"):
        match, _ = match_document(other + row, index)
        assert match is not None and len(match.tied) == 1, other


def test_a_judge_is_asked_first_about_the_task_whose_structure_the_row_repeats() -> None:
    # A recurrent cell written out by hand: no word of the row shows a GRU, so semantics has no
    # reason to offer the task to a judge; the constructor its model repeats does.
    gru = """import torch
class Model(torch.nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 3):
        super().__init__()
        self.gru = torch.nn.GRU(input_size, hidden_size, num_layers)
    def forward(self, x):
        return self.gru(x)[0]
def get_inputs():
    return [torch.rand(512, 10, 128)]
"""
    index = _index({**SIBLINGS, "gru": gru})
    index.judge_candidates = JUDGE_CANDIDATES
    model = MODEL_NEW.replace(
        "in_channels,\n        out_channels,\n        kernel_size: {annotation},",
        "input_size: int, hidden_size: int, num_layers: int = 3,",
    )
    row = "__aicore__ void Cell() { Sigmoid(z, a, n); Tanh(h, b, n); Mul(h, z, h, n); Add(o, h, c, n); }"
    match, _ = match_document(row, index)
    assert match is None, "a row with no structure and no GRU word was offered the GRU task"
    match, _ = match_document(row + model, index)
    assert match is not None and match.layer == "candidate" and _task(index, match) == "gru"


TINY_NET = """import torch
import torch.nn as nn
class Model(nn.Module):
    def __init__(self, num_classes=10, width_mult=0.5, stem_channels=24):
        super().__init__()
        self.stem = nn.Conv2d(3, stem_channels, 3)
        self.head = nn.Linear(stem_channels, num_classes)
    def forward(self, x):
        x = torch.relu(self.stem(x))
        x = torch.max_pool2d(x, 2)
        return self.head(x.mean([2, 3]))
def get_inputs():
    return [torch.rand(2, 3, 64, 64)]
"""


def test_a_constructor_only_one_task_has_places_a_network() -> None:
    # A network's name states no op: before, only its name could place a solution of it.
    index = _index({**SIBLINGS, "tiny_net": TINY_NET})
    row = "__aicore__ void Stem() { ConvWindow(acc, x, w); Relu(y, acc, n); MaxPool(p, y, n); Mmad(o, p, w2, n); }"
    model = MODEL_NEW.replace(
        "in_channels,\n        out_channels,\n        kernel_size: {annotation},",
        "num_classes=10, width_mult=0.5, stem_channels=24,",
    )
    assert match_document(row, index)[0] is None
    match, _ = match_document(row + model, index)
    assert _task(index, match) == "tiny_net" and match is not None and match.layer == "semantics"
    assert match.basis == "constructor"
    # The same constructor on a row that shows under half of the network's ops places nothing,
    # and neither does it on a row of another rank (a 3-D input checked against a 2-D network).
    match, _ = match_document("__aicore__ void K() { Add(y, x, x, n); }" + model, index)
    assert match is None
    assert match_document('TORCH_CHECK(x.dim() == 5, "NCDHW");\n' + row + model, index)[0] is None


def test_a_pinned_shape_outweighs_a_word_for_another_sibling() -> None:
    # The row's comment says "square" (a word of the other sibling's reference), its binding pins
    # the asymmetric sibling's input: the structure, not the word, is what it was written for.
    index = _index(SIBLINGS)
    worded = PLAIN_CONV + "\n// square kernel, square tiles\n"
    facts, words = candidate_facts(worded)
    square, asymmetric = (semantic_score(index, t, facts, words, frozenset(facts.values)) for t in (0, 1))
    assert _task(index, match_document(worded, index)[0]) != "conv_standard_2d_asymmetric_kernel"
    assert square.score > asymmetric.score
    pins = "TORCH_CHECK(x.size(0) == 10 && x.size(1) == 6 && x.size(2) == 30 && x.size(3) == 40);\n"
    match, _ = match_document(pins + worded, index)
    assert _task(index, match) == "conv_standard_2d_asymmetric_kernel"


def test_a_constructor_is_read_within_its_own_class_only() -> None:
    # Each class's `__init__` is looked for up to the next class. Before, a class without one took
    # the next class's (and a hostile row of 20,000 such classes took minutes: every class scanned
    # the rest of the text).
    hostile = "class A(nn.Module): pass " * 20_000 + "class B(nn.Module):\n    def __init__(self, x: int):\n"
    found = module_constructors(hostile)
    assert found == {"B": ("x:int",)}


def test_a_reference_whose_constants_square_themselves_is_read_without_computing_them() -> None:
    # Hostile: each constant the square of the one before; in full, the 40th has more digits than
    # memory holds (before, the evaluation stopped the run with an OverflowError). A shape is far
    # smaller: such a value is left out.
    chain = "".join(
        f"v{i} = {'a' if i == 0 else f'v{i - 1}'} * {'a' if i == 0 else f'v{i - 1}'}\n" for i in range(40)
    )
    text = (
        "import torch\na = 2 ** 40\n"
        + chain
        + "class Model(torch.nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n"
        + "def get_inputs():\n    return [torch.rand(v39, 3), torch.rand(a, 2)]\n"
    )
    assert read_reference("relu", text).input_dims == [[2**40, 2]]


def test_the_constructor_read_is_the_models_not_its_parts() -> None:
    # A network's solution defines its blocks as module classes too; a block's constructor can be
    # another task's (a dense block inside a DenseNet). The harness builds ModelNew: that is read.
    index = _index({**SIBLINGS, "tiny_net": TINY_NET})
    row = "__aicore__ void Stem() { ConvWindow(acc, x, w); Relu(y, acc, n); MaxPool(p, y, n); Mmad(o, p, w2, n); }"
    block = "\nclass Block(nn.Module):\n    def __init__(self, num_classes=10, width_mult=0.5, stem_channels=24):\n        pass\n"
    model = "\nclass ModelNew(nn.Module):\n    def __init__(self, depth: int = 121):\n        pass\n"
    assert _task(index, match_document(row + block, index)[0]) == "tiny_net"  # no ModelNew: every class
    assert match_document(row + block + model, index)[0] is None


def test_of_the_candidates_the_words_tie_the_one_whose_structure_the_row_repeats_is_placed() -> None:
    # Two tasks repeat the row's constructor (the square sibling and a dilated, padded one the
    # words score lower), so the structure alone picks neither; of the two the words tie, only
    # the square sibling repeats it.
    dilated = SQUARE.replace("# square kernel", "# square kernel, dilated and padded, grouped and strided")
    index = _index({**SIBLINGS, "conv_standard_2d_square_kernel_dilated_padded_grouped_strided": dilated})
    document = "// a standard convolution\n" + PLAIN_CONV + MODEL_NEW.format(annotation="int")
    match, _ = match_document(document, index)
    assert _task(index, match) == "conv_standard_2d_square_kernel"
    assert match is not None and match.layer == "semantics" and match.basis == "structure"


def test_a_network_whose_constructor_the_row_annotates_is_found_by_its_parameter_names() -> None:
    # The reference writes `num_classes=10`; the solution `num_classes: int = 10`. No task has the
    # annotated constructor, and only one has its parameter names: the row is placed there, and
    # the report says what was compared.
    index = _index({**SIBLINGS, "tiny_net": TINY_NET})
    row = "__aicore__ void Stem() { ConvWindow(acc, x, w); Relu(y, acc, n); MaxPool(p, y, n); Mmad(o, p, w2, n); }"
    model = MODEL_NEW.replace(
        "in_channels,\n        out_channels,\n        kernel_size: {annotation},",
        "num_classes: int = 10, width_mult: float = 0.5, stem_channels: int = 24,",
    )
    match, facts = match_document(row + model, index)
    assert _task(index, match) == "tiny_net" and match is not None and match.layer == "semantics"
    assert structural_fit(index, match.item, facts) == [
        "constructor names (num_classes, width_mult, stem_channels)"
    ]


def test_a_constructor_extended_with_defaulted_parameters_fits_its_task() -> None:
    # The solution adds `dilation: int = 1` after its reference's parameters: the harness's
    # positional init inputs build it all the same, and only the square sibling is extended so.
    index = _index(SIBLINGS)
    model = MODEL_NEW.replace("kernel_size: {annotation},", "kernel_size: int,\n        dilation: int = 1,")
    match, facts = match_document(PLAIN_CONV + model, index)
    assert _task(index, match) == "conv_standard_2d_square_kernel"
    assert structural_fit(index, match.item, facts) == [
        "constructor (in_channels, out_channels, kernel_size:int), then defaulted dilation:int=1"
    ]
    # A parameter without a default is no extension: the harness would not fill it. The kind the
    # row declares its kernel size with still tells the siblings apart (`dedup.ties.declared_kinds`).
    required = MODEL_NEW.replace("kernel_size: {annotation},", "kernel_size: int,\n        dilation: int,")
    match, facts = match_document(PLAIN_CONV + required, index)
    assert _task(index, match) == "conv_standard_2d_square_kernel" and match.basis == "tie settled"
    assert structural_fit(index, match.item, facts) == []


def test_unclosed_constructors_are_read_in_bounded_time() -> None:
    # Hostile: 5,000 `def __init__(self, ` with no `)`; each scanned to the end of its class before
    # (25.7 s per 100 KB). A constructor's parameters are read at most 4,000 characters on.
    hostile = "import torch\nclass M(torch.nn.Module):\n" + "    def __init__(self, " * 5_000
    assert module_constructors(hostile) == {}
    assert "{0,4000}" in _INIT_PARAMETERS.pattern


# Tied siblings told apart by what the row's op definition states (`dedup.ties.settle_tie`).
def _matmul_reference(expr: str, inputs: str = "A, B", extra: str = "") -> str:
    return f'''import torch
import torch.nn as nn

class Model(nn.Module):
    """Performs a single matrix multiplication."""
    def forward(self, {inputs}):
        return torch.matmul({expr}){extra}

M = 1024
K = 4096
N = 2048

def get_inputs():
    return [{", ".join("torch.rand(K, K)" for _ in inputs.split(","))}]
'''


TRANSPOSED = {
    "matmul_with_transposed_a": _matmul_reference("A.T, B"),
    "matmul_with_transposed_b": _matmul_reference("A, B.T"),
}
BYSTANDER = {"conv2d_hardtanh_scale": HARDTANH_SCALE}  # words every task states weigh nothing
MATMUL_ROW = """
// C = A * B on the cube unit: a gemm of two fp32 matrices
extern "C" __global__ __aicore__ void op_kilo(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
  mm.SetTensorA(aGlobal, false);
  mm.SetTensorB(bGlobal, /*isTransposeB=*/true);
  mm.IterateAll(cGlobal);
}
// host: tiling for M = 1024, K = 4096, N = 2048; a single matrix multiplication per core
// cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false);
// cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, /*transpose=*/true);
"""


def test_the_reference_states_which_matmul_operand_it_transposes() -> None:
    assert read_reference("t", TRANSPOSED["matmul_with_transposed_a"]).transposed == ["a"]
    assert read_reference("t", _matmul_reference("A.t(), B.transpose(0, 1)")).transposed == ["a", "b"]
    linear = _reference("").replace("nn.Conv2d(in_channels, out_channels, kernel_size)", "nn.Linear(6, 12)")
    assert read_reference("t", linear).transposed == ["b"], "nn.Linear multiplies by its weight transposed"


def test_the_operand_a_row_transposes_settles_a_tie_between_siblings() -> None:
    index = _index({**TRANSPOSED, **BYSTANDER})
    match, _ = match_document(MATMUL_ROW, index)
    assert _task(index, match) == "matmul_with_transposed_b" and match.tied == []
    # Transposing neither: no sibling agrees, both stay named.
    match, _ = match_document(MATMUL_ROW.replace("true", "false"), index)
    assert match is not None and {
        _task(index, match),
        *(index.signatures[t].task for t in match.tied),
    } == set(TRANSPOSED)


def test_the_operand_a_binding_transposes_settles_a_tie_between_siblings() -> None:
    # The kernel multiplies as it is given; the binding hands it the operand transposed.
    index = _index({**TRANSPOSED, **BYSTANDER})
    row = MATMUL_ROW.replace("true", "false")
    for python, task in (
        ("a.transpose(0, 1).contiguous()", "matmul_with_transposed_a"),
        ("B.t()", "matmul_with_transposed_b"),
    ):
        match, _ = match_document(row + f"\n# model_src\nprepared = {python}\n", index)
        assert _task(index, match) == task and match.tied == [], python


def test_the_number_of_inputs_a_row_declares_settles_a_tie_between_siblings() -> None:
    index = _index(
        {
            "gemm_matmul_plain": _matmul_reference("A, B"),
            "gemm_matmul_masked": _matmul_reference("A, B", "A, B, C", " * C"),
            **BYSTANDER,
        }
    )
    inputs = '\n  Mul(y, y, m, n);\n  this->Input("x1"); this->Input("x2"); this->Input("x3");\n'
    match, _ = match_document(MATMUL_ROW.replace("true", "false") + inputs, index)
    assert _task(index, match) == "gemm_matmul_masked" and match.tied == []
    match, _ = match_document(
        MATMUL_ROW.replace("true", "false") + inputs.replace(' this->Input("x3");', ""), index
    )
    assert _task(index, match) == "gemm_matmul_plain" and match.tied == []


def test_input_shapes_are_read_as_the_sizes_each_creator_is_given() -> None:
    reference = _matmul_reference("A, B", "A, B, C", " * C").replace(
        "return [torch.rand(K, K), torch.rand(K, K), torch.rand(K, K)]",
        "A = torch.rand((K, M))\n    return [A, torch.rand(K, N), torch.randint(0, 2, A.shape)]",
    )
    assert read_reference("t", reference).input_shapes == [["K", "M"], ["K", "N"], ["A.shape"]]


def test_the_weight_shapes_of_a_references_convolutions_are_evaluated() -> None:
    assert read_reference("t", SQUARE).weight_dims == [[12, 6, 3, 3]]
    grouped = _reference("").replace(
        "nn.Conv2d(in_channels, out_channels, kernel_size)", "nn.Conv2d(6, 12, (5, 9), groups=3)"
    )
    assert read_reference("t", grouped).weight_dims == [[12, 2, 5, 9]]
    transposed = _reference("").replace("nn.Conv2d(", "nn.ConvTranspose2d(")
    assert read_reference("t", transposed).weight_dims == [[6, 12, 3, 3]]
    # Defaults the constructor's parameters cannot hold are read without failing.
    odd = SQUARE.replace("def __init__(self, in_channels", "def __init__(self, *, g=1, in_channels")
    assert read_reference("t", odd).weight_dims in ([], [[12, 6, 3, 3]])


def _pins(tensor: str, dims: list[int]) -> str:
    checks = " && ".join(f"{tensor}.size({i}) == {d}" for i, d in enumerate(dims))
    return f'TORCH_CHECK({checks}, "shape");\n'


def test_a_pinned_weight_shape_breaks_a_tie_between_siblings_run_on_the_same_input() -> None:
    wide = SQUARE.replace("return [6, 12, 3]", "return [6, 12, (3, 5)]").replace("# square kernel", "# wide")
    index = _index({"conv_standard_2d_square_kernel": SQUARE, "conv_standard_2d_wide_kernel": wide})
    match, facts = match_document(_pins("weight", [12, 6, 3, 5]) + PLAIN_CONV, index)
    assert _task(index, match) == "conv_standard_2d_wide_kernel" and match.tied == []
    assert structural_fit(index, match.item, facts) == ["weight shape [12, 6, 3, 5]"]


def test_the_sibling_sharing_more_of_the_rows_structure_fits() -> None:
    # Both siblings have the row's weight shape; only one is run on the input it pins.
    index = _index(SIBLINGS)
    pins = _pins("x", [10, 6, 30, 40]) + _pins("weight", [12, 6, 3, 3])
    match, facts = match_document(pins + PLAIN_CONV, index)
    assert _task(index, match) == "conv_standard_2d_asymmetric_kernel" and match.tied == []
    assert structural_fit(index, match.item, facts) == [
        "input shape [10, 6, 30, 40]",
        "weight shape [12, 6, 3, 3]",
    ]


def test_a_row_that_refuses_a_non_square_kernel_settles_a_tie_between_siblings() -> None:
    # Two siblings the row's words tie; one is run with a square kernel, the other a 3 x 5 one.
    wide = TIED_SIBLINGS["conv2d_hardtanh_scale_shifted"].replace(
        "return [6, 12, 3]", "return [6, 12, (3, 5)]"
    )
    index = _index({**TIED_SIBLINGS, "conv2d_hardtanh_scale_shifted": wide})
    row = _conv_kernel(TIED_BODY)
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    check = "if (kernelHeight != kernelWidth) { return ge::GRAPH_FAILED; }\n"
    match, _ = match_document(check + row, index)
    assert _task(index, match) == "conv2d_hardtanh_scale_centred" and match.tied == []
    # A check of the output's height against its width says nothing of the kernel.
    match, _ = match_document(check.replace("kernel", "out") + row, index)
    assert match is not None and len(match.tied) == 1


def test_a_kernel_of_one_extent_settles_a_tie_between_square_and_wide_kernel_siblings() -> None:
    # The weight indexed by one kernel size squared: the row convolves square kernels only. A
    # row that names a kernel height and width apart does both.
    wide = TIED_SIBLINGS["conv2d_hardtanh_scale_shifted"].replace(
        "return [6, 12, 3]", "return [6, 12, (3, 5)]"
    )
    index = _index({**TIED_SIBLINGS, "conv2d_hardtanh_scale_shifted": wide})
    row = _conv_kernel(TIED_BODY)
    one = "float w = wGm.GetValue(((co * cin + ci) * cfg.k + kh) * cfg.k + kw);  // cfg.k * cfg.k taps\n"
    match, _ = match_document(one + row, index)
    assert _task(index, match) == "conv2d_hardtanh_scale_centred" and match.tied == []
    two = one + "for (uint32_t kh = 0; kh < KH; ++kh) {}\n"
    match, _ = match_document(two + row, index)
    assert match is not None and len(match.tied) == 1


def _recurrent(module: str, returned: str) -> str:
    unpack = "out, state" if module == "LSTM" else "out, h_n"
    return f"""import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers):
        super().__init__()
        self.rnn = nn.{module}(input_size, hidden_size, num_layers)

    def forward(self, x, h0):
        {unpack} = self.rnn(x, h0)
        return {returned}

def get_inputs():
    return [torch.rand(12, 6, 20), torch.rand(2, 6, 32)]

def get_init_inputs():
    return [20, 32, 2]
"""


def _recurrent_row(module: str, output: str) -> str:
    """A renamed recurrent kernel: its gates, its op definition's inputs and one output."""
    return f"""
// a {module} over num_layers layers of hidden_size (input_size in): its gates, then the next state
extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR h0, GM_ADDR w_ih, GM_ADDR y) {{
  Sigmoid(gate, acc, n); Tanh(cell, acc2, n); Mul(cell, cell, gate, n);
}}
// this->Input("x"); this->Input("h0"); this->Output("{output}");
"""


def test_the_reference_states_which_recurrent_result_it_returns() -> None:
    assert read_reference("t", _recurrent("GRU", "out")).returns == "output"
    assert read_reference("t", _recurrent("GRU", "h_n")).returns == "h_n"
    assert read_reference("t", _recurrent("LSTM", "state[1]")).returns == "c_n"
    assert read_reference("t", _recurrent("LSTM", "state[0]")).returns == "h_n"
    assert read_reference("t", _recurrent("LSTM", "state")).returns == ""
    assert read_reference("t", HARDTANH_SCALE).returns == ""


def test_the_state_a_rows_output_is_named_after_settles_a_tie_between_siblings() -> None:
    index = _index({"lstm_hn": _recurrent("LSTM", "state[0]"), "lstm_cn": _recurrent("LSTM", "state[1]")})
    row = _recurrent_row("LSTM", "OUT") + "// specialised: x [12, 6, 20], h0 [2, 6, 32]\n"
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    for name, task in (("c_n", "lstm_cn"), ("h_n", "lstm_hn")):
        match, _ = match_document(row.replace('Output("OUT")', f'Output("{name}")'), index)
        assert _task(index, match) == task and match.tied == []


def test_the_state_a_rows_binding_returns_settles_a_tie_between_siblings() -> None:
    # The op definition's output names no state (`res`); the binding returns the variable that
    # holds one, or stacks it. A value computed from a state (a model's head on the last hidden)
    # names none.
    index = _index({"lstm_hn": _recurrent("LSTM", "state[0]"), "lstm_cn": _recurrent("LSTM", "state[1]")})
    row = _recurrent_row("LSTM", "res") + "// specialised: x [12, 6, 20], h0 [2, 6, 32]\n"
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    for ret, task in (("return c_n;", "lstm_cn"), ("return at::stack(hLast, 0);", "lstm_hn")):
        match, _ = match_document(row + f"at::Tensor run_lstm() {{ {ret} }}\n", index)
        assert _task(index, match) == task and match is not None and match.tied == []
    # or says so: a binding's docstring, the stacked layers' finals in a variable of no name
    said = 'at::Tensor run_lstm() { return at::stack(finals, 0); }\nm.def("run", &run_lstm, "returns c_n");\n'
    match, _ = match_document(row + said, index)
    assert _task(index, match) == "lstm_cn" and match is not None and match.tied == []
    head = row + "at::Tensor run_lstm() { return at::addmm(fcBias, hLast, fcWeight.t()); }\n"
    match, _ = match_document(head, index)
    assert match is not None and len(match.tied) == 1


def test_the_state_a_row_returns_places_it_on_one_sibling_below_the_threshold() -> None:
    # Saying less (no sizes, no parameter names), the row scores below the threshold on both
    # siblings: the state its output is named after still tells them apart.
    index = _index({"lstm_hn": _recurrent("LSTM", "state[0]"), "lstm_cn": _recurrent("LSTM", "state[1]")})
    row = _recurrent_row("LSTM", "OUT").replace("over num_layers layers of hidden_size (input_size in)", "")
    assert match_document(row, index)[0] is None
    for name, task in (("c_n", "lstm_cn"), ("h_n", "lstm_hn")):
        match, _ = match_document(row.replace('Output("OUT")', f'Output("{name}")'), index)
        assert _task(index, match) == task and match is not None and match.score < SEMANTIC_THRESHOLD
        assert match.basis == "tie settled"


def test_a_word_only_one_tied_name_has_settles_the_tie_when_the_row_says_it() -> None:
    index = _index(
        {"conv2d_hardtanh_scale_centred": HARDTANH_SCALE, "conv2d_hardtanh_scale_reverse": HARDTANH_SCALE}
    )
    row = _conv_kernel(TIED_BODY)
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    match, _ = match_document(row + "\n// the rows are walked in reverse\n", index)
    assert _task(index, match) == "conv2d_hardtanh_scale_reverse" and match.tied == []
    # A word of the tasks' own parameters is said by every solution of either: no evidence.
    hidden = {
        name: HARDTANH_SCALE.replace("kernel_size)", "kernel_size, hidden_size=4)")
        for name in ("conv2d_hardtanh_scale", "conv2d_hardtanh_scale_hidden")
    }
    index = _index(hidden)
    match, _ = match_document(row + "\n// hidden size 4\n", index)
    assert match is not None and len(match.tied) == 1


def test_a_switch_the_row_sets_off_is_not_a_word_for_the_sibling_it_names() -> None:
    index = _index(
        {"conv2d_hardtanh_scale_centred": HARDTANH_SCALE, "conv2d_hardtanh_scale_reverse": HARDTANH_SCALE}
    )
    row = _conv_kernel(TIED_BODY)
    match, _ = match_document(row + "\n// walked with reverse = true\n", index)
    assert _task(index, match) == "conv2d_hardtanh_scale_reverse", "the word no longer settles the tie"
    for off in ("reverse=False", "reverse = false"):
        match, _ = match_document(row + f"\n// walked with {off}\n", index)
        assert match is not None and len(match.tied) == 1, f"`{off}` was read as the word `reverse`"


def test_a_switch_the_row_states_settles_a_tie_between_siblings_built_with_it() -> None:
    def gru(bidirectional: bool) -> str:
        return _recurrent("GRU", "out").replace(
            "num_layers)\n", f"num_layers, bidirectional={bidirectional})\n"
        )

    assert read_reference("t", gru(True)).switches == {"bidirectional": True}
    index = _index({"gru": gru(False), "gru_bidirectional": gru(True)})
    row = _recurrent_row("GRU", "y")
    match, _ = match_document(row, index)
    # saying nothing, the row is placed on the plain sibling (`dedup.ties.plain_apart`)
    assert _task(index, match) == "gru", "the plain sibling was not taken: the test proves nothing"
    for on, task in (("False", "gru"), ("True", "gru_bidirectional")):
        match, _ = match_document(row + f"// layers=2, bidirectional={on}\n", index)
        assert _task(index, match) == task and match is not None and match.tied == []
        assert match.basis == "tie settled"


def test_of_siblings_the_plain_one_is_taken_where_the_row_says_no_qualifier_of_the_others() -> None:
    # `gru` and `gru_bidirectional`: a row written for the qualified task says how it differs.
    index = _index({"conv2d_hardtanh_scale": HARDTANH_SCALE, "conv2d_hardtanh_scale_reverse": HARDTANH_SCALE})
    row = _conv_kernel(TIED_BODY)
    match, _ = match_document(row, index)
    assert (
        _task(index, match) == "conv2d_hardtanh_scale" and match.tied == [] and match.basis == "tie settled"
    )
    match, _ = match_document(row + "\n// the rows are walked in reverse\n", index)
    assert _task(index, match) == "conv2d_hardtanh_scale_reverse" and match.tied == []
    # A qualifier that negates (`net_vlad_no_ghost_clusters`), one the tasks' parameters name (said
    # by every solution of either) or a letter (`_b`) leaves the siblings tied.
    for qualified, reference in (
        ("conv2d_hardtanh_scale_no_shift", HARDTANH_SCALE),
        (
            "conv2d_hardtanh_scale_hidden",
            HARDTANH_SCALE.replace("kernel_size)", "kernel_size, hidden_size=4)"),
        ),
        ("conv2d_hardtanh_scale_b", HARDTANH_SCALE),
    ):
        index = _index({"conv2d_hardtanh_scale": HARDTANH_SCALE, qualified: reference})
        assert plain_apart(index, [0, 1], {"conv", "hardtanh", "scale"}) == [0, 1], qualified
    index = _index({"conv2d_hardtanh_scale": HARDTANH_SCALE, "conv2d_hardtanh_scale_shift": HARDTANH_SCALE})
    assert plain_apart(index, [0, 1], {"conv", "hardtanh", "scale"}) == [0], "the case above proves nothing"


def test_a_task_name_the_benchmark_misspells_is_read_spelt_right() -> None:
    # MultiKernelBench names a task `gru_birectional`: a row that says "bidirectional" says it.
    row = _recurrent_row("GRU", "y") + "// a bidirectional GRU: both directions, concatenated\n"
    gru = _recurrent("GRU", "out")
    index = _index({"gru": gru, "gru_birectional": gru})
    match, _ = match_document(row, index)
    assert _task(index, match) == "gru_birectional" and match.tied == []


def test_a_cached_task_is_read_by_the_cache_a_row_names() -> None:
    # `kv_cached_attention_inference`: a row takes a `k_cache` and a `v_cache`.
    from schemas.taskops import task_name_words

    assert "cache" in task_name_words("kv_cached_attention_inference")
    assert "cache" in candidate_facts("GM_ADDR q, GM_ADDR k_cache, GM_ADDR v_cache")[1]


def test_a_switch_a_reference_calls_with_settles_siblings_the_row_states_it_for() -> None:
    # `bilinear_upsample` interpolates with align_corners=False, its sibling with True; a row states
    # it in its own spelling (`alignCorners`, `ALIGN_CORNERS`).
    def upsample(aligned: bool) -> str:
        return _single(
            f"torch.nn.functional.interpolate(x, scale_factor=2.0, mode='bilinear', align_corners={aligned})"
        )

    assert read_reference("t", upsample(True)).switches == {"align_corners": True}
    index = _index({"upsample_aligned": upsample(True), "upsample_plain": upsample(False)})
    row = (
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR y) {\n'
        "  // bilinear upsample, scale factor 2\n  const float wx0 = 1.0f - wx1;\n}\n"
    )
    assert match_document(row, index)[0] is None, "one sibling is placed unstated: the test proves nothing"
    for stated, task in (
        ("bool alignCorners = false;", "upsample_plain"),
        ("constexpr bool ALIGN_CORNERS = true;", "upsample_aligned"),
    ):
        match, _ = match_document(row + stated + "\n", index)
        assert _task(index, match) == task and match.tied == [], stated


def _mlp(widths: str) -> str:
    return f"""import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, input_size, layer_sizes, output_size):
        super().__init__()
        layers, width = [], input_size
        for size in layer_sizes:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        layers.append(nn.Linear(width, output_size))
        self.network = nn.Sequential(*layers)

    def forward(self, x):
        return self.network(x)

def get_inputs():
    return [torch.rand(1, 1000)]

def get_init_inputs():
    return [1000, {widths}, 10]
"""


GEMM_RELU = """import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.gemm(x))
"""


def test_a_row_whose_structure_fits_only_networks_is_one_of_them_not_a_fused_task() -> None:
    index = _index({"gemm_relu": GEMM_RELU, "deep_mlp": _mlp("[50, 50, 50]"), "wide_mlp": _mlp("[4000]")})
    kernel = "// gemm (in_features -> out_features) then relu\n__aicore__ void Layer() { Mmad(c, a, b, n); Relu(c, c, n); }\n"
    assert _task(index, match_document(kernel, index)[0]) == "gemm_relu"
    model = MODEL_NEW.replace(
        "in_channels,\n        out_channels,\n        kernel_size: {annotation},",
        "input_size, layer_sizes, output_size,",
    )
    match, _ = match_document(kernel + model, index)
    assert match is not None, "a network's solution was not flagged"
    named = {index.signatures[t].task for t in (match.item, *match.tied)}
    assert named == {"deep_mlp", "wide_mlp"} and match.basis == "tie"


def test_a_row_that_names_the_network_it_solves_is_placed_on_it() -> None:
    index = _index({"gemm_relu": GEMM_RELU, "deep_mlp": _mlp("[50, 50, 50]"), "wide_mlp": _mlp("[4000]")})
    kernel = "// gemm (in_features -> out_features) then relu\n__aicore__ void Layer() { Mmad(c, a, b, n); Relu(c, c, n); }\n"
    assert _task(index, match_document(kernel, index)[0]) == "gemm_relu"
    # Said in its prose (spelt apart, in any case), the network's name places the row on the
    # network, not on the fused step its kernel shows.
    match, _ = match_document(kernel, index, prose="Each layer of the Deep-MLP runs this kernel.")
    assert _task(index, match) == "deep_mlp" and match is not None and match.basis == "stated network"
    # One layer of the network, said so, is the fused step its kernel shows.
    for layer in ("This is Deep-MLP's first layer, a gemm and a relu.", "The module is the Deep-MLP stem."):
        match, _ = match_document(kernel, index, prose=layer)
        assert _task(index, match) == "gemm_relu", layer
    # A broadcast's name is everyday prose: said, it places nothing.
    index = _index({"gemm_relu": GEMM_RELU, "in_place_update": GEMM_RELU.replace("relu", "abs")})
    match, _ = match_document(kernel, index, prose="an in-place update of the output")
    assert _task(index, match) == "gemm_relu"


def test_a_row_that_names_a_family_of_networks_is_one_of_them_not_its_fused_step() -> None:
    # "NetVLAD" names `net_vlad_no_ghost` and `net_vlad_with_ghost` alike: the row solves one of
    # them, not the gemm its kernel shows; a word only one of them has settles it.
    networks = {"mlp_net_narrow": _mlp("[50, 50, 50]"), "mlp_net_wide": _mlp("[4000]")}
    index = _index({"gemm_relu": GEMM_RELU, **networks})
    kernel = "// gemm (in_features -> out_features) then relu\n__aicore__ void Layer() { Mmad(c, a, b, n); Relu(c, c, n); }\n"
    assert _task(index, match_document(kernel, index)[0]) == "gemm_relu"
    match, _ = match_document(kernel, index, prose="Each layer of the MLP-Net runs this kernel.")
    assert match is not None and {
        _task(index, match),
        *(index.signatures[t].task for t in match.tied),
    } == set(networks)
    match, _ = match_document(kernel, index, prose="Each layer of the narrow MLP-Net runs this kernel.")
    assert _task(index, match) == "mlp_net_narrow" and match.tied == [] and match.basis == "stated network"
    # A family named by one everyday word is none (`squeeze` of `squeeze_net`, an `unsqueeze`).
    index = _index({"gemm_relu": GEMM_RELU, "squeeze_net": _mlp("[50]"), "squeeze_net_fire": _mlp("[60]")})
    assert index.stated_families == {}


def test_a_constructor_parameter_only_one_tied_task_takes_settles_the_tie_when_the_row_names_it() -> None:
    # `group_query_attention` takes `num_kv_heads`, `multi_query_attention` does not: a row whose
    # tiling carries `numKvHeads` was written for the former (fresh rows: +6 right, none wrong).
    row = _conv_kernel(TIED_BODY)

    def taking(param: str) -> str:
        return HARDTANH_SCALE.replace("kernel_size)", f"kernel_size, {param}=4)")

    def siblings(a: str, b: str) -> dict[str, str]:
        return {"conv2d_hardtanh_scale_a": taking(a), "conv2d_hardtanh_scale_b": taking(b)}

    index = _index(siblings("alpha_kv", "beta_kv"))
    match, _ = match_document(row, index)
    assert match is not None and len(match.tied) == 1, "the siblings no longer tie: the test proves nothing"
    match, _ = match_document(row + "\n  uint32_t betaKv = tiling.betaKv;\n", index)
    assert _task(index, match) == "conv2d_hardtanh_scale_b" and match.tied == []
    # A size (`max_seqlen`) names no computation, and a parameter many tasks take (a stride) is
    # named by a generic kernel whichever sibling it was written for: neither settles anything.
    index = _index(siblings("max_seqlen", "min_seqlen"))
    match, _ = match_document(row + "\n  uint32_t maxSeqlen = tiling.maxSeqlen;\n", index)
    assert match is not None and len(match.tied) == 1
    common = {
        f"conv2d_{op}_{k}": _reference(f"        x = torch.{op}(x)").replace(
            "kernel_size)", "kernel_size, stride_hw=4)"
        )
        for k, op in enumerate(("relu", "tanh", "sigmoid"))
    }
    index = _index({**siblings("stride_hw", "beta_kv"), **common})
    tied = [t for t, sig in enumerate(index.signatures) if sig.task.startswith("conv2d_hardtanh_scale")]
    assert parameters_apart(index, tied, "uint32_t betaKv;") != tied
    assert parameters_apart(index, tied, "uint32_t strideHw;") == tied
    # ... nor does one axis of such a parameter (`stride_h` of a reference that spells its
    # geometry per axis): any sibling's kernel names its strides so
    strided = {
        f"conv2d_{op}_{k}": _reference(f"        x = torch.{op}(x)").replace(
            "kernel_size)", "kernel_size, stride=1)"
        )
        for k, op in enumerate(("relu", "tanh", "sigmoid", "abs"))
    }
    index = _index({**siblings("stride_h", "beta_kv"), **strided})
    assert parameters_apart(index, tied, "uint32_t strideH;") == tied
    assert parameters_apart(index, tied, "uint32_t betaKv;") != tied


# A network built from a block class defined above `Model`, through a builder method and a local
# alias, with a `forward` that calls another method of the class.
BLOCK_NETWORK = """
import torch
import torch.nn as nn
import torch.nn.functional as F

class Squash(nn.Module):
    def forward(self, x):
        return torch.tanh(x) * 0.5

class Unit(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)
        self.act = Squash()

    def forward(self, x):
        return self.act(self.conv(x)) + x

class Model(nn.Module):
    def __init__(self, channels=16, num_classes=10):
        super().__init__()
        block = Unit
        self.stem = nn.Sequential(nn.Conv2d(3, channels, 7), nn.ReLU(), Unit(channels))
        self.body = self._stack(block, channels, 2)
        self.fc = nn.Linear(channels, num_classes)

    def _stack(self, block, channels, n):
        return nn.Sequential(*[block(channels) for _ in range(n)])

    def features(self, x):
        return F.max_pool2d(self.body(self.stem(x)), 2)

    def forward(self, x):
        x = self.features(x)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))
"""


def test_a_reference_is_read_from_its_model_class_with_its_blocks_ops_in_order() -> None:
    sig = read_reference("tiny_net", BLOCK_NETWORK)
    unit = ["conv", "tanh", "mul", "add"]
    # the stem (a conv, a relu, a block), the body (a block), a pool; then the head
    assert sig.forward_ops == ["conv", "relu", *unit, *unit, "max_pool", "avg_pool", "matmul"]
    assert sig.init_params == ["channels", "num_classes"], "the parameters read were a block's"
    assert sig.blocks == [["tanh", "mul"], unit]


UNIT_TASK = """
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return torch.tanh(self.conv(x)) * 0.5 + x
"""


def test_a_chain_that_repeats_one_block_does_not_tell_the_block_from_its_network() -> None:
    # The binding runs the stem, then one block in a loop: its calls are the block task's forward
    # and the network's block alike (a SqueezeNet row so written had been placed on the fire module).
    index = _index({"tiny_net": BLOCK_NETWORK, "tiny_unit": UNIT_TASK})
    binding = """
at::Tensor forward(const at::Tensor& x, const std::vector<at::Tensor>& w) {
  at::Tensor h = at::relu(at::conv2d(x, w[0]));
  for (size_t i = 1; i < w.size(); ++i) {
    h = at::add(at::mul(at::tanh(at::conv2d(h, w[i], {}, 1, 1)), 0.5), h);
  }
  return h;
}
"""
    match, _ = match_document(binding, index)
    assert match is None or match.basis != "forward chain", "a block's calls placed the row on the block task"


def test_module_classes_built_from_each_other_are_read_in_bounded_size() -> None:
    # Eight classes, each building the one before it ten times: 10^8 ops if expanded whole.
    classes = ["class B0(nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n"]
    for k in range(1, 9):
        parts = ", ".join(f"B{k - 1}()" for _ in range(10))
        classes.append(
            f"class B{k}(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            f"        self.body = nn.Sequential({parts})\n    def forward(self, x):\n        return self.body(x)\n"
        )
    model = "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
    model += "        self.net = B8()\n    def forward(self, x):\n        return self.net(x)\n"
    sig = read_reference("deep_net", "import torch\nimport torch.nn as nn\n" + "".join(classes) + model)
    assert 0 < len(sig.forward_ops) <= 1024 and set(sig.forward_ops) == {"relu"}
    assert all(len(block) <= 1024 for block in sig.blocks)


def _gemm_scale_batch_norm(batch: int, features: int) -> str:
    return f"""import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, in_features, out_features, scale_shape):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.scale = nn.Parameter(torch.randn(scale_shape))
        self.bn = nn.BatchNorm1d(out_features)

    def forward(self, x):
        x = self.gemm(x)
        x = x * self.scale
        x = self.bn(x)
        return x

batch_size = {batch}
in_features = {features}

def get_inputs():
    return [torch.rand(batch_size, in_features)]
"""


def test_a_task_the_benchmark_states_twice_is_one_placement_not_a_tie() -> None:
    # MultiKernelBench has `gemm_scale_batch_norm` and `gemm_scale_batchnorm`: one forward, other
    # sizes, names alike but for a separator. A renamed row that solves it tied the two (fresh
    # rows: 6 left unplaced); the identity layer reads both names as one, and so does the tie.
    index = _index(
        {
            "gemm_scale_batch_norm": _gemm_scale_batch_norm(16384, 4096),
            "gemm_scale_batchnorm": _gemm_scale_batch_norm(128, 1024),
            "gemm_relu": _gemm_scale_batch_norm(8, 8).replace("x = self.bn(x)", "x = torch.relu(x)"),
        }
    )
    row = (
        "// gemm (in_features -> out_features), then a scale of scale_shape, then each feature standardised\nMatmul<aType, bType, cType> mm;\n"
        'extern "C" __global__ __aicore__ void op_zulu(GM_ADDR x, GM_ADDR w, GM_ADDR s, GM_ADDR y) {\n'
        "  mm.SetTensorA(xGm); mm.SetTensorB(wGm); mm.IterateAll(yGm);\n  Mul(t, t, scaleLocal, n);\n"
        "  float var = ex2 - mean * mean;  // moments over the batch\n"
        "  Sub(t, t, meanLocal, n); Mul(t, t, rstdLocal, n); Mul(t, t, gammaLocal, n); Add(t, t, betaLocal, n);\n}\n"
    )
    match, _ = match_document(row, index)
    assert match is not None and not match.tied
    assert _task(index, match) == "gemm_scale_batch_norm"
