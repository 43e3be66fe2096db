"""The canonical op vocabulary shared by both sides of task matching.

A benchmark states its task in PyTorch (`nn.Conv2d`, `torch.tanh`, `F.group_norm`); a training
row states it in AscendC and prose (`Tanh`, `groupNormTiling`, "// apply min over channels").
Both are mapped onto the same small set of canonical ops here, through one word table
(`WORD_OPS`; a torch callable is read as one of its words, `TORCH_CALLABLES`), so that `parsers.torchref` (the
test side) and `dedup.tasks` (the training side) agree on what a word means.

Each op has a strength: `strong` ops name a computation that a kernel does not do by accident
(a convolution, a softmax, a group norm); `weak` ops are words every kernel uses for other
reasons (`min` for tiling, `exp` inside a sigmoid); `generic` ops are element-wise arithmetic,
present in every kernel. Only strong and weak ops are required for a claim (the fused-task rule).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

STRONG = "strong"
WEAK = "weak"
GENERIC = "generic"

# canonical op -> strength
OP_STRENGTH: dict[str, str] = {
    **{
        op: STRONG
        for op in (
            "collective",  # an all-gather, an all-reduce: no task requires one (`COLLECTIVES`)
            "conv",
            "conv_transpose",
            "matmul",
            "relu",
            "leaky_relu",
            "gelu",
            "sigmoid",
            "tanh",
            "softmax",
            "log_softmax",
            "logsumexp",
            "mish",
            "swish",
            "hardswish",
            "hardsigmoid",
            "hardtanh",
            "selu",
            "elu",
            "softplus",
            "softsign",
            "batch_norm",
            "group_norm",
            "layer_norm",
            "instance_norm",
            "rms_norm",
            "max_pool",
            "avg_pool",
            "argmax",
            "argmin",
            "cumsum",
            "cumprod",
            "prod",
            "gather",
            "scatter",
            "index_select",
            "index_add",
            "index_copy",
            "masked_fill",
            "embedding",
            "where",
            "attention",
            "lstm",
            "gru",
            "rnn",
            "interpolate",
            "grid_sample",
            "dropout",
            "cross_entropy",
            "kl_div",
            "mse",
            "huber",
            "hinge",
            "triplet",
            "cosine_similarity",
            "adam",
            "adagrad",
            "rmsprop",
            "sgd",
            "lamb",
            "norm",
            "logical_and",
        )
    },
    **{op: WEAK for op in ("pool", "min", "max", "sum", "mean", "exp", "log", "sqrt", "abs", "clamp", "pow")},
    **{op: GENERIC for op in ("add", "sub", "mul", "div")},
}

# Words (lower case, identifiers split at `_` and case changes, trailing `1d/2d/3d` removed;
# two or three consecutive words are also looked up joined) -> canonical ops they show.
WORD_OPS: dict[str, tuple[str, ...]] = {
    "conv": ("conv",),
    "convolution": ("conv",),
    "im2col": ("conv",),
    "depthwise": ("conv",),
    "oihw": ("conv",),  # a convolution's weight layouts
    "oidhw": ("conv",),
    "convtranspose": ("conv_transpose", "conv"),
    "conv_transpose": ("conv_transpose", "conv"),
    "transposed_conv": ("conv_transpose", "conv"),
    "deconv": ("conv_transpose", "conv"),
    "convt": ("conv_transpose", "conv"),  # `convT`, `ConvTPoint`
    "conv_t": ("conv_transpose", "conv"),
    "deconvolution": ("conv_transpose", "conv"),
    "matmul": ("matmul",),
    "mat_mul": ("matmul",),
    "gemm": ("matmul",),
    "gemv": ("matmul",),
    "mmad": ("matmul",),
    "bmm": ("matmul",),
    "linear": ("matmul",),
    "einsum": ("matmul",),
    "matrix_multiplication": ("matmul",),
    "relu": ("relu",),
    "relu6": ("relu",),
    "leakyrelu": ("leaky_relu",),
    "leaky_relu": ("leaky_relu",),
    "lrelu": ("leaky_relu",),
    "gelu": ("gelu",),
    "sigmoid": ("sigmoid",),
    "tanh": ("tanh",),
    "softmax": ("softmax",),
    "logsoftmax": ("log_softmax",),
    "log_softmax": ("log_softmax",),
    "logsumexp": ("logsumexp",),
    "log_sum_exp": ("logsumexp",),
    "lse": ("logsumexp",),
    "mish": ("mish",),
    "swish": ("swish",),
    "silu": ("swish",),
    "hardswish": ("hardswish",),
    "hard_swish": ("hardswish",),
    "hardsigmoid": ("hardsigmoid",),
    "hard_sigmoid": ("hardsigmoid",),
    "piecewise_sigmoid": ("hardsigmoid",),  # linear pieces clamped to [0, 1]
    "hardtanh": ("hardtanh",),
    "hard_tanh": ("hardtanh",),
    "selu": ("selu",),
    "elu": ("elu",),
    "softplus": ("softplus",),
    "softsign": ("softsign",),
    "batchnorm": ("batch_norm",),
    "batch_norm": ("batch_norm",),
    "groupnorm": ("group_norm",),
    "group_norm": ("group_norm",),
    "layernorm": ("layer_norm",),
    "layer_norm": ("layer_norm",),
    "instancenorm": ("instance_norm",),
    "instance_norm": ("instance_norm",),
    "rmsnorm": ("rms_norm",),
    "rms_norm": ("rms_norm",),
    "maxpool": ("max_pool",),
    "max_pool": ("max_pool",),
    "max_pooling": ("max_pool",),
    "avgpool": ("avg_pool",),
    "avg_pool": ("avg_pool",),
    "average_pool": ("avg_pool",),
    "averagepool": ("avg_pool",),
    "average_pooling": ("avg_pool",),
    "avg_pooling": ("avg_pool",),
    "pool": ("pool",),
    "pooling": ("pool",),
    "adaptive_avg_pool": ("avg_pool",),
    "argmax": ("argmax",),
    "argmin": ("argmin",),
    "cumsum": ("cumsum",),
    "cumulative_sum": ("cumsum",),
    "prefix_sum": ("cumsum",),
    "cumprod": ("cumprod",),
    "cumulative_product": ("cumprod",),
    "prefix_product": ("cumprod",),
    "running_product": ("cumprod",),
    "prod": ("prod",),
    "product": ("prod",),
    # A product of two vectors or matrices is a matmul's, not a reduction by multiplication:
    # `scaled_dot_product_attention` requires no `prod`.
    "dot_product": ("matmul",),
    "inner_product": ("matmul",),
    "matrix_product": ("matmul",),
    "antialias": ("interpolate",),  # only a resize filters before it samples
    # Linear attention is a kind of attention (a kernel feature map instead of a softmax), not an
    # attention and a linear layer: `linear_attention` requires no matmul of its own.
    "linear_attention": ("attention",),
    "gather": ("gather",),
    "take_along_dim": ("gather",),
    "scatter": ("scatter",),
    "scatter_add": ("scatter",),
    "index_select": ("index_select",),
    "index_add": ("index_add",),
    "index_copy": ("index_copy",),
    "masked_fill": ("masked_fill",),
    "embedding": ("embedding",),
    "where": ("where",),
    "attention": ("attention",),
    "attn": ("attention",),
    "sdpa": ("attention",),
    "flash_attention": ("attention",),
    "lstm": ("lstm",),
    "gru": ("gru",),
    "rnn": ("rnn",),
    "interpolate": ("interpolate",),
    "upsample": ("interpolate",),
    "bilinear": ("interpolate",),
    "bicubic": ("interpolate",),
    "trilinear": ("interpolate",),
    "nearest": ("interpolate",),
    "grid_sample": ("grid_sample",),
    "gridsample": ("grid_sample",),
    "dropout": ("dropout",),
    "cross_entropy": ("cross_entropy",),
    "crossentropy": ("cross_entropy",),
    "kl_div": ("kl_div",),
    "kldiv": ("kl_div",),
    "mse": ("mse",),
    "mse_loss": ("mse",),
    "huber": ("huber",),
    "smooth_l1": ("huber",),
    "hinge": ("hinge",),
    "triplet": ("triplet",),
    "cosine_similarity": ("cosine_similarity",),
    "cosine": ("cosine_similarity",),
    "adam": ("adam",),
    "adagrad": ("adagrad",),
    "rmsprop": ("rmsprop",),
    "sgd": ("sgd",),
    "lamb": ("lamb",),
    "norm": ("norm",),
    "frobenius": ("norm",),
    "l1_norm": ("norm",),
    "l2_norm": ("norm",),
    "normalize": ("norm",),
    # the statistics of the current batch: a batch norm's (training mode)
    "batch_statistics": ("batch_norm",),
    "batch_stats": ("batch_norm",),
    "batch_stat": ("batch_norm",),
    "logical_and": ("logical_and",),
    "logic_and": ("logical_and",),
    "land": ("logical_and",),
    "min": ("min",),
    # A name, no computation: minGPT (`min_gpt_new_gelu`, `min_gpt_causal_attention`) takes no
    # minimum. The longer chunk is read first and consumes the word.
    "mingpt": (),
    "min_gpt": (),
    "minimum": ("min",),
    "mins": ("min",),
    "max": ("max",),
    "maximum": ("max",),
    "maxs": ("max",),
    "sum": ("sum",),
    "reduce_sum": ("sum",),
    "reducesum": ("sum",),
    "mean": ("mean",),
    "average": ("mean",),
    "avg": ("mean",),
    "exp": ("exp",),
    "log": ("log",),
    "ln": ("log",),
    "sqrt": ("sqrt",),
    "rsqrt": ("sqrt",),
    "abs": ("abs",),
    "clamp": ("clamp",),
    "clip": ("clamp",),
    "pow": ("pow",),
    "power": ("pow",),
    "add": ("add",),
    "adds": ("add",),
    "bias": ("add",),
    "residual": ("add",),
    "sub": ("sub",),
    "subtract": ("sub",),
    "mul": ("mul",),
    "muls": ("mul",),
    "multiply": ("mul",),
    "scale": ("mul",),
    "scaling": ("mul",),
    "div": ("div",),
    "divide": ("div",),
    "division": ("div",),
    # Parameters only one computation has: an op definition's attributes and inputs keep them
    # when every name spelt after the task is changed (`negative_slope` is a leaky relu's).
    "negative_slope": ("leaky_relu",),
    "neg_slope": ("leaky_relu",),
    "running_mean": ("batch_norm",),
    "running_var": ("batch_norm",),
    "num_groups": ("group_norm",),
    "normalized_shape": ("layer_norm",),
    "output_padding": ("conv_transpose", "conv"),
}

# Long forms an operator library spells out where a benchmark names the short one
# (`ExpLinearUnitCustom`, `layer_normalization`, `SuffixSum`) -> the short form's words. Read as
# the short form's ops, and the short words join a row's words (`dedup.tasks.candidate_facts`):
# renamed, a library's own name for its op still says the task's words.
LONG_FORMS: dict[str, tuple[str, ...]] = {
    "rectified_linear": ("relu",),
    "exp_linear_unit": ("elu",),
    "exponential_linear": ("elu",),
    "scaled_exponential_linear": ("selu",),
    "scaled_exp_linear": ("selu",),
    "gaussian_error_linear": ("gelu",),
    "sigmoid_linear_unit": ("swish",),
    "hswish": ("hard", "swish"),
    "hsigmoid": ("hard", "sigmoid"),
    "batch_normalization": ("batch", "norm"),
    "group_normalization": ("group", "norm"),
    "layer_normalization": ("layer", "norm"),
    "instance_normalization": ("instance", "norm"),
    "batch_normalisation": ("batch", "norm"),
    "group_normalisation": ("group", "norm"),
    "layer_normalisation": ("layer", "norm"),
    "instance_normalisation": ("instance", "norm"),
    "suffix_sum": ("cumsum",),
    "inclusive_scan": ("cumsum",),
    "take_along": ("gather",),
    "trust_ratio": ("lamb",),  # LAMB scales an Adam step by this ratio of norms
    "kullback_leibler": ("kl", "div"),
    "relative_entropy": ("kl", "div"),
    "mean_squared": ("mse",),
    "squared_error": ("mse",),
}
WORD_OPS.update({long: WORD_OPS["_".join(short)] for long, short in LONG_FORMS.items()})


def short_forms(shown: Iterable[str]) -> set[str]:
    """The short form's words of each long form among `shown` (words that showed an op)."""
    return {word for long in shown for word in LONG_FORMS.get(long, ())}


# torch / nn / F callables (the last dotted component, lower case) that name a computation ->
# the word of WORD_OPS they are read as: one table says what a word shows, for both sides.
_RANKED = ("1d", "2d", "3d")
TORCH_CALLABLES: dict[str, str] = {
    **{f"conv{r}": "conv" for r in _RANKED},
    **{f"convtranspose{r}": "convtranspose" for r in _RANKED},
    **{f"conv_transpose{r}": "conv_transpose" for r in _RANKED},
    **{f"batchnorm{r}": "batchnorm" for r in _RANKED},
    **{f"instancenorm{r}": "instancenorm" for r in _RANKED},
    **{f"maxpool{r}": "maxpool" for r in _RANKED},
    **{f"max_pool{r}": "max_pool" for r in _RANKED},
    **{f"avgpool{r}": "avgpool" for r in _RANKED},
    **{f"avg_pool{r}": "avg_pool" for r in _RANKED},
    **{f"adaptiveavgpool{r}": "adaptive_avg_pool" for r in _RANKED},
    **{f"adaptive_avg_pool{r}": "adaptive_avg_pool" for r in _RANKED},
    **{
        word: word
        for word in (
            *("linear", "matmul", "bmm", "einsum", "relu", "relu6", "leaky_relu", "leakyrelu", "gelu"),
            *("sigmoid", "tanh", "softmax", "log_softmax", "logsoftmax", "logsumexp", "mish", "silu"),
            *("hardswish", "hardsigmoid", "hardtanh", "selu", "elu", "softplus", "softsign"),
            *("batch_norm", "groupnorm", "group_norm", "layernorm", "layer_norm", "instance_norm"),
            *("rmsnorm", "argmax", "argmin", "cumsum", "cumprod", "prod", "gather", "take_along_dim"),
            *("scatter", "scatter_add", "index_select", "index_add", "index_copy", "masked_fill"),
            *("embedding", "where", "lstm", "gru", "rnn", "interpolate", "upsample", "grid_sample"),
            *("dropout", "cross_entropy", "kl_div", "mse_loss", "cosine_similarity", "norm", "normalize"),
            *("logical_and", "min", "minimum", "max", "maximum", "sum", "mean", "exp", "log", "sqrt"),
            *("rsqrt", "abs", "clamp", "clip", "pow", "add", "sub", "subtract", "mul", "multiply"),
            *("div", "divide"),
        )
    },
    # spelt otherwise than the word they stand for
    "mm": "matmul",
    "addmm": "matmul",
    "baddbmm": "matmul",
    "relu_": "relu",
    "scaled_dot_product_attention": "sdpa",
    "multiheadattention": "attention",
    "smooth_l1_loss": "smooth_l1",
    "tripletmarginloss": "triplet",
    "amin": "min",
    "amax": "max",
}


def torch_ops(callable_name: str) -> tuple[str, ...]:
    """The canonical ops a torch callable (lower case, `conv2d`, `log_softmax`) computes."""
    word = TORCH_CALLABLES.get(callable_name)
    return WORD_OPS[word] if word is not None else ()


# Ops a kernel uses to carry out another: a convolution runs on the cube unit as a matmul, a mish
# is a softplus and a tanh. A solution showing them does no computation beyond the task's.
IMPLEMENTED_WITH: dict[str, tuple[str, ...]] = {
    "conv": ("matmul",),
    "conv_transpose": ("matmul",),
    "attention": ("matmul", "softmax"),
    "lstm": ("matmul", "sigmoid", "tanh"),
    "gru": ("matmul", "sigmoid", "tanh"),
    "rnn": ("matmul", "tanh"),
    "mish": ("softplus", "tanh"),
    "swish": ("sigmoid",),
    "gelu": ("tanh", "sigmoid"),  # the tanh form, and x * sigmoid(1.702 x)
    "tanh": ("sigmoid",),  # tanh(x) = 2 sigmoid(2x) - 1
    "log_softmax": ("softmax", "logsumexp"),
    "softmax": ("logsumexp",),
    "logsumexp": ("softmax",),
    "softplus": ("relu",),
    "elu": ("relu",),
    "selu": ("elu", "relu"),
    "hardswish": ("hardsigmoid", "relu"),
    "hardsigmoid": ("hardtanh", "relu"),
    "hardtanh": ("relu",),
    "leaky_relu": ("relu",),
    "group_norm": ("instance_norm", "layer_norm", "norm"),
    "layer_norm": ("norm",),
    "instance_norm": ("norm",),
    "batch_norm": ("norm",),
    "rms_norm": ("norm",),
    "cross_entropy": ("log_softmax", "softmax", "logsumexp", "gather"),
    "triplet": ("norm", "hinge"),  # max(d(a, p) - d(a, n) + margin, 0)
    "hinge": ("relu",),  # max(0, 1 - y * t)
    "cosine_similarity": ("norm",),
    "grid_sample": ("interpolate",),
    "cumprod": ("prod",),  # a running product: "the product of the elements so far"
    "masked_fill": ("where",),  # a select of a scalar where the mask is set
    # an index copy or add writes rows through an index (a scatter), an index select reads them
    "index_copy": ("scatter",),
    "index_add": ("scatter",),
    "index_select": ("gather",),
    # the extreme, and the select (`where`) that keeps its position
    "argmax": ("max", "where"),
    "argmin": ("min", "where"),
}


# Ops a kernel writes out by hand, recognised when it shows every one of the ops they are made of
# (in this order: an op recognised here can make the next). A "pool" kernel that takes a mean is
# an average pool; a log-softmax (and a log-sum-exp) is Exp, ReduceSum and Log; a global average
# pool is a mean; a mean is a sum and a division. Such an op may satisfy a task that requires it,
# never counts as work beyond a task (the same calls serve many computations), and is not one of
# the two strong ops a fused task needs (`dedup.tasks.semantically_claimable`). Each entry was
# kept for what it does on the dev split (README "Task-level leaks"); a swish as Sigmoid and Mul,
# norms as mean and sqrt, a relu as Maxs, an LSTM as gates of Exp and Tanh were tried and left out.
COMPOSITES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("avg_pool", ("pool", "mean")),
    ("max_pool", ("pool", "max")),
    ("log_softmax", ("exp", "log", "sum")),
    ("logsumexp", ("exp", "log", "sum")),
    ("avg_pool", ("mean",)),
    ("mean", ("sum", "div")),
)


# Elementwise activations: the usual steps of a fused task (`dedup.tasks` counts one the task
# does not name as twice the extra work of another op).
ACTIVATIONS = frozenset(
    {"relu", "leaky_relu", "elu", "selu", "gelu", "sigmoid", "tanh", "softplus", "softsign", "mish", "swish"}
    | {"hardswish", "hardsigmoid", "hardtanh"}
)


def implied_ops(ops: set[str] | frozenset[str]) -> set[str]:
    """The ops `ops` are commonly carried out with (see IMPLEMENTED_WITH)."""
    return {helper for op in ops for helper in IMPLEMENTED_WITH.get(op, ())}


def strength(op: str) -> str:
    return OP_STRENGTH.get(op, WEAK)


_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*(?:d(?![a-z]))?|[A-Z]+[0-9]*|[0-9]+")
_DIMS = re.compile(r"(?<=[a-z])(?:[0-9]+d|[0-9]+)$")


@functools.lru_cache(maxsize=1 << 16)
def _split_cached(name: str) -> tuple[str, ...]:
    return tuple(_split(name))


# Words of a task's name or parameters that say nothing of its computation.
NAME_STOP_WORDS = frozenset(
    {"a", "an", "the", "of", "over", "with", "for", "to", "in", "on", "by", "and", "or", "model", "new"}
)


def split_identifier(name: str) -> list[str]:
    """ "Conv2dMinTanhCustom" -> conv, min, tanh, custom; "max_pool3d" -> max, pool; dims dropped."""
    return list(_split_cached(name))


# Words a benchmark's task names misspell (MultiKernelBench's `gru_birectional`,
# `elmentwise_mul_broadcast`): read as spelt right, a row that says "bidirectional" says its name.
# A name's participle is read as the noun a row names its inputs by: `kv_cached_...` takes a
# `k_cache` and a `v_cache`.
_MISSPELT = {"birectional": "bidirectional", "elmentwise": "elementwise", "cached": "cache"}


def task_name_words(task: str) -> list[str]:
    """The words of a task's name, spelt right (`gru_birectional`: gru, bidirectional)."""
    return [_MISSPELT.get(word, word) for word in split_identifier(task)]


def _split(name: str) -> list[str]:
    """ "Conv2dMinTanhCustom" -> conv, min, tanh, custom; "max_pool3d" -> max, pool; dims dropped."""
    words = []
    for piece in name.split("_"):
        for part in _PARTS.findall(piece):
            word = _DIMS.sub("", part.lower())
            if word:
                words.append(word)
    return words


def text_words(text: str) -> list[str]:
    """Every identifier of a text split into lower-case words, in order."""
    return [w for ident in _IDENT.findall(text) for w in _split_cached(ident)]


def name_ops(task: str) -> list[str]:
    """The ops a task's name states, in its order (`conv2d_relu_hard_swish`: conv, relu, hardswish)."""
    return list(ops_of_words(split_identifier(task)))


def ops_of_words(words: list[str]) -> dict[str, str]:
    """Canonical op -> the first word (or joined words) that showed it. The longest chunk wins
    and consumes its words: "max pooling" is a max_pool, not also a max."""
    found: dict[str, str] = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word not in WORD_PREFIXES:  # the common case: one word, one lookup
            for op in WORD_OPS.get(word, ()):
                found.setdefault(op, word)
            i += 1
            continue
        step = 1
        for span in (3, 2, 1):
            if i + span > len(words):
                continue
            chunk = words[i : i + span]
            keys = ("".join(chunk), "_".join(chunk)) if span > 1 else (chunk[0],)
            ops = next((WORD_OPS[k] for k in keys if k in WORD_OPS), None)
            if ops is not None:
                for op in ops:
                    found.setdefault(op, keys[-1])
                step = span
                break
        i += step
    return found


# Every prefix of every vocabulary key: a chunk of several words is looked up only when its
# first word can start one (most words of a kernel cannot), which keeps the scan linear and cheap.
# Phrases that hold an op's word and name no computation: collective communication (an all-gather
# moves shards between devices, a reduce-scatter sums across them), AscendC's mask and atomic
# modes (`SetMaskNorm`, `SetAtomicAdd`) and memory pools (`TBufPool`, an LLM server's
# `tokenPool`). Left, they made 18 of 69 files of a communication library (ascend-transformer-
# boost's lcal) look like solutions of the `gather`, `scatter` and `l2_norm` tasks, and a token
# pool and a max like a max pool. Matched in any case, with or without `_`.
_COLLECTIVE_PHRASES = r"all_?gather|reduce_?scatter|all_?reduce|all_?to_?all"
# A document that does collective communication: a collective, or a collective communication
# library's name (HCCL, LCCL, `CCLGatherArgs`), whose "gather" is its own.
COLLECTIVES = re.compile(rf"(?i){_COLLECTIVE_PHRASES}|\b[hl]?ccl")
NOT_COMPUTATIONS = re.compile(
    rf"(?i){_COLLECTIVE_PHRASES}|set_?mask_?(?:norm|count)"
    r"|(?:set_?)?atomic_?(?:add|max|min|sub)"
    r"|(?:buf|buffer|token|req|request|mem|memory|kv|block|page|cache|thread)_?pool"
    # A position encoding (a rotary or learnt one) is added to a sequence, not looked up by ids.
    r"|(?:rotary|positional|position|pos)_?(?:pos(?:ition)?_?)?(?:embedding|emb)s?"
    # Linear as in a flat layout, not a layer: "the linear index", "a Linear chunk per block".
    r"|\blinear\s{1,8}(?:index|indices|idx|offsets?|id|address|addr|layout|position|pos|chunks?|elements?"
    r"|outputs?|memory|order|range|span)\b"
    r"|\bpower[-_\s]{1,3}of[-_\s]{1,3}(?:two|2)\b"  # a size rounded, no exponent
    r"|\bround(?:s|ed|ing)?[-_\s]{1,3}(?:half[-_\s]{1,3})?to[-_\s]{1,3}nearest"  # a rounding mode, no upsample
    # A size: "product of leading dims", "the product of all dimensions but the last", "product
    # of outerShape", "product of the leading (broadcast) dims", "product dims[1:]", "prod of normalized_shape".
    r"|\bproduct\s{1,8}(?:dims?|dimensions|sizes|shapes)\b"
    r"|\bprod(?:uct)?\s{1,8}of\s{1,8}(?:\(?[a-z]{1,24}[),]{0,2}\s{1,8}){0,4}\w{0,24}?(?:dims?|dimensions|sizes?|shapes?|extents|lengths)\b"
    # English "where" opening a clause ("where the W stride is 1", "where x is", "(b, i) where:"):
    # no selection.
    r"|\bwhere\s{0,8}:|\bwhere\s{1,8}(?=(?:the|a|an|it|its|each|we|this|that|these|those|they|one|all|every|no)\s"
    r"|(?:[a-z_]{1,24}\s{1,8}){1,4}(?:is|are|has|have|was|were|does|do|holds?|marks?|starts?|ends?|would)\b)"
)

WORD_PREFIXES = frozenset(key[:k] for key in WORD_OPS for k in range(1, len(key)))


# A torch module's constructor as a text defines it (`class ModelNew(torch.nn.Module):` ...
# `def __init__(self, in_channels: int, kernel_size: tuple, stride: int = 1)`). A benchmark's
# harness builds a solution's model with the task's `get_init_inputs`, so a solution written for
# a task repeats its reference's constructor, and siblings differ there (`kernel_size: int` for
# a square kernel, `tuple` for an asymmetric one). Read from text, not `ast`: a training row's
# Python sits among C++ (a submission's `model_src`, a text row's code block).
_MODULE_CLASS = re.compile(r"\bclass\s+(\w+)\s*\([\w.\s]*Module\s*\)\s*:")
# Parameters are read at most 4,000 characters on (real lists are under 1,000): unbounded, each of
# 5,000 unclosed `def __init__(self, ` scanned to the end of its class (25.7 s per 100 KB).
_INIT_PARAMETERS = re.compile(r"\bdef\s+__init__\s*\(\s*self\s*,?(.{0,4000}?)\)\s*(?:->\s*None\s*)?:", re.S)
_LINE_COMMENT = re.compile(r"#[^\n]*")


def module_constructors(text: str) -> dict[str, tuple[str, ...]]:
    """Class name -> its `__init__` parameters, each `name:annotation=default` without spaces,
    for every torch module class the text defines; {} when it defines none. Each class's
    `__init__` is looked for only up to the next class: linear in the text, however hostile."""
    if "__init__" not in text or "Module" not in text:
        return {}
    classes = list(_MODULE_CLASS.finditer(text))
    found = {}
    for here, after in zip(classes, [*classes[1:], None], strict=True):
        end = after.start() if after is not None else len(text)
        init = _INIT_PARAMETERS.search(text, here.end(), end)
        if init is not None:
            found[here.group(1)] = _parameters(init.group(1))
    return found


def _parameters(text: str) -> tuple[str, ...]:
    """Top-level comma-separated parameters (a default may be a tuple), `*args` left out."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in _LINE_COMMENT.sub("", text):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    cleaned = ("".join(p.split()).replace('"', "'") for p in parts)
    return tuple(p for p in cleaned if p and not p.startswith("*"))


# The lines that build a reference's model: its `__init__`, its helper modules and methods, its
# settings, every line but those of a `forward` and the trivial ones (imports, `def`, `return`,
# `super().__init__()`). A solution's own `ModelNew` repeats them: the harness loads the
# reference's parameters into it, so its layers are built alike (`nn.Conv2d(3, 32, kernel_size=3,
# stride=2, padding=1, bias=False)`), whatever its kernels are named. Compared with spaces and
# comments dropped.
_TRIVIAL_LINE = re.compile(r"(?:import|from|def|class|return)\b|super\(|@|\"\"\"|\'\'\'|#")
MODEL_LINE_CHARS = 8


def line_key(line: str) -> str:
    """A line as model lines are compared: its comment and every space dropped."""
    return "".join(line.partition("#")[0].split())


def line_keys(text: str) -> set[str]:
    """Every line of a text as model lines are compared (`line_key`)."""
    return {line_key(line) for line in text.splitlines()}


def model_lines(text: str) -> frozenset[str]:
    """The keys of the lines of a PyTorch reference that build its model (see above)."""
    found: set[str] = set()
    forward_indent = -1
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped:
            continue
        indent = len(raw) - len(stripped)
        if forward_indent >= 0 and indent > forward_indent:
            continue  # the body of a forward
        forward_indent = indent if stripped.startswith("def forward") else -1
        if _TRIVIAL_LINE.match(stripped):
            continue
        key = line_key(stripped)
        if len(key) >= MODEL_LINE_CHARS and ("(" in key or "=" in key):
            found.add(key)
    return frozenset(found)
