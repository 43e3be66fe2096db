"""Category and NPUKernelBench level of a kernel unit: a keyword heuristic over the operator
name (and a benchmark's own category folder), then the APIs the kernel calls. Never empty:
what matches nothing is `other`.

Levels follow NPUKernelBench: 1 elementary (element-wise arithmetic, comparison, logic, cast,
fill); 2 structured (matmul, reductions, pooling, normalisation, activations, windowed or
attribute-driven ops); 3 complex (top-k and sort, matmul in complex regimes, NMS, attention,
sparse ops).
"""

from __future__ import annotations

import re

CATEGORIES = (
    "elementwise",
    "activation",
    "reduction",
    "normalization",
    "matmul",
    "convolution",
    "pooling",
    "index/gather/scatter",
    "sort/topk",
    "loss",
    "optimizer",
    "attention",
    "quantization",
    "data-movement",
    "other",
)

# Checked in this order: the first category with a matching name token wins. Entries with "_"
# match a run of tokens ("layer_norm"), the others a single token or a token prefix ("norm*").
# fmt: off
_NAME_RULES: list[tuple[str, tuple[str, ...]]] = [
    ("attention", ("attention", "attn", "flash", "mha", "qkv", "rope", "rotary", "kv_cache", "paged")),
    ("sort/topk", ("sort", "argsort", "topk", "top_k", "nms", "non_max_suppression", "kthvalue", "unique",
                   "median")),
    ("loss", ("loss", "cross_entropy", "nll", "mse", "kl_div", "bce", "binary_cross_entropy", "hinge", "huber",
              "smooth_l1")),
    ("optimizer", ("adam", "adamw", "sgd", "momentum", "lamb", "adagrad", "rmsprop", "ftrl", "lars", "apply",
                   "optimizer")),
    ("quantization", ("quant", "dequant", "antiquant", "quantize", "dequantize", "requant")),
    ("normalization", ("norm", "layernorm", "rmsnorm", "batchnorm", "groupnorm", "normalize", "l2norm")),
    ("convolution", ("conv", "conv2d", "conv3d", "deconv", "convolution", "depthwise", "im2col", "col2im")),
    ("pooling", ("pool", "avgpool", "maxpool", "pooling", "avg_pool", "max_pool")),
    ("matmul", ("matmul", "gemm", "gemv", "bmm", "mm", "linear", "addmm", "einsum", "batchmatmul", "mat_mul")),
    ("activation", ("relu", "gelu", "silu", "swish", "sigmoid", "tanh", "softmax", "logsoftmax", "log_softmax",
                    "elu", "selu", "leaky", "prelu", "hardswish", "hard_swish", "hardsigmoid", "hard_sigmoid",
                    "mish", "softplus", "softsign", "glu", "swiglu", "geglu", "celu", "activation", "hardtanh")),
    ("reduction", ("reduce", "sum", "mean", "prod", "argmax", "argmin", "cumsum", "cumprod", "logsumexp", "var",
                   "std", "amax", "amin", "count", "all", "any", "reduction")),
    ("index/gather/scatter", ("gather", "scatter", "index", "embedding", "take", "masked_select", "one_hot",
                              "onehot", "nonzero", "bincount", "searchsorted", "segment", "put", "lookup")),
    ("data-movement", ("transpose", "permute", "concat", "split", "slice", "stack", "unpack", "pack", "pad",
                       "tile", "repeat", "broadcast", "reshape", "copy", "flip", "roll", "identity", "squeeze",
                       "unsqueeze", "expand", "tril", "triu", "diag", "space_to_depth", "depth_to_space",
                       "trans", "format", "move", "view", "contiguous", "data_movement", "datamovement")),
    ("elementwise", ("add", "sub", "mul", "div", "abs", "exp", "log", "ln", "sqrt", "rsqrt", "pow", "neg",
                     "reciprocal", "sin", "cos", "tan", "cast", "equal", "greater", "less", "compare", "logical",
                     "bitwise", "and", "or", "xor", "not", "fill", "fills", "clip", "clamp", "maximum",
                     "minimum", "floor", "ceil", "round", "sign", "erf", "lerp", "axpy", "addcmul", "addcdiv",
                     "isnan", "isinf", "isfinite", "zeros", "ones", "square", "elementwise", "eltwise",
                     "arithmetic", "max", "min", "where", "select", "fma", "muls", "adds", "mod", "remainder",
                     "trunc", "invert")),
    # Named so that the reductions they use inside do not pull them into "reduction".
    ("other", ("histogram", "histc", "random", "rand", "randn", "multinomial", "bernoulli", "philox")),
]
# fmt: on

_API_RULES: list[tuple[str, frozenset[str]]] = [
    ("attention", frozenset({"SoftmaxFlash", "SoftmaxFlashV2", "SoftmaxFlashV3"})),
    ("sort/topk", frozenset({"Sort", "Sort32", "TopK", "MrgSort", "MrgSort4", "RpSort16"})),
    ("matmul", frozenset({"Mmad", "Matmul", "IterateAll", "SetTensorA", "LoadData", "Fixpipe"})),
    (
        "quantization",
        frozenset({"AscendQuant", "AscendDequant", "AscendAntiQuant", "Quantize", "Dequantize"}),
    ),
    ("normalization", frozenset({"LayerNorm", "RmsNorm", "BatchNorm", "GroupNorm", "DeepNorm", "Normalize"})),
    ("activation", frozenset({"Relu", "Gelu", "Silu", "Sigmoid", "Tanh", "SoftMax", "Swish", "FasterGelu"})),
    ("index/gather/scatter", frozenset({"Gather", "Gatherb", "Scatter", "GatherMask"})),
    (
        "reduction",
        frozenset({"ReduceSum", "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax", "ReduceMean"}),
    ),
]
_ARITHMETIC_APIS = frozenset(
    {
        "Add",
        "Sub",
        "Mul",
        "Div",
        "Adds",
        "Muls",
        "Exp",
        "Ln",
        "Abs",
        "Sqrt",
        "Max",
        "Min",
        "Cast",
        "Compare",
        "Select",
        "Duplicate",
    }
)
_MOVE_APIS = frozenset({"DataCopy", "DataCopyPad", "Copy"})

# Sparse and scatter-accumulate ops are level 3 in NPUKernelBench (level3/Sparse/IndexAdd).
_LEVEL3_NAME_TOKENS = (
    "nms",
    "non_max_suppression",
    "sparse",
    "grouped",
    "roi",
    "deformable",
    "moe",
    "scatter",
    "index_add",
)
_LEVEL3_CATEGORIES = {"sort/topk", "attention"}
_LEVEL1_CATEGORIES = {"elementwise"}
_LEVEL1_MOVES = ("fill", "fills", "copy", "identity", "zeros", "ones")


def name_tokens(name: str) -> list[str]:
    """`AddCustomV2` / `add_custom_v2` / `add-custom` -> ["add", "custom", "v2"]."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    # From a run of capitals' first (a later start matches where the first does not): from every
    # capital, a 100 KB capitalised name took 80 s.
    spaced = re.sub(r"(?<![A-Z])([A-Z]+)([A-Z][a-z])", r"\1_\2", spaced)
    return [t for t in re.split(r"[^a-zA-Z0-9]+", spaced.lower()) if t]


def _matches(tokens: list[str], keyword: str) -> bool:
    if "_" in keyword:
        parts = keyword.split("_")
        return any(tokens[i : i + len(parts)] == parts for i in range(len(tokens)))
    if keyword in ("norm", "pool", "conv", "quant", "sort", "reduce", "gather", "scatter", "loss", "matmul"):
        return any(t.startswith(keyword) or t.endswith(keyword) for t in tokens)
    return keyword in tokens


# Trailing tokens that name a variant or a copy, not the operation ("add_v2_copy" is an add).
_VARIANT_TOKENS = re.compile(r"^(?:v\d+|d|copy|custom|apt|demo|sample|kernel|lite|impl|new|old|legacy)$")


def _operation_tokens(name: str) -> list[str]:
    tokens = name_tokens(name)
    while len(tokens) > 1 and _VARIANT_TOKENS.match(tokens[-1]):
        tokens.pop()
    return tokens


def category_from_name(*names: str) -> str | None:
    for name in names:
        tokens = _operation_tokens(name)
        if not tokens:
            continue
        for category, keywords in _NAME_RULES:
            if any(_matches(tokens, k) for k in keywords):
                return category
    return None


def category_from_apis(apis: list[str]) -> str:
    used = set(apis)
    for category, markers in _API_RULES:
        if used & markers:
            return category
    if used & _ARITHMETIC_APIS:
        return "elementwise"
    if used & _MOVE_APIS:
        return "data-movement"
    return "other"


def category_and_level(op_name: str, kernel_name: str, apis: list[str], hint: str = "") -> tuple[str, int]:
    """(category, level) of a unit; `hint` is a benchmark's own category folder, if any."""
    category = category_from_name(op_name, kernel_name, hint) or category_from_apis(apis)
    return category, level_of(category, op_name)


def level_of(category: str, op_name: str) -> int:
    tokens = name_tokens(op_name)
    if category in _LEVEL3_CATEGORIES or any(_matches(tokens, k) for k in _LEVEL3_NAME_TOKENS):
        return 3
    if category == "matmul" and any(t in tokens for t in ("quant", "batch", "grouped", "weight")):
        return 3
    if category in _LEVEL1_CATEGORIES:
        return 1
    if category == "data-movement" and any(t in tokens for t in _LEVEL1_MOVES):
        return 1
    return 2
