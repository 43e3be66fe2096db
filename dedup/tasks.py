"""Task-level matching: place a training document on the benchmark task it solves.

Copies of an answer are found by `dedup.leakage`; this module finds solutions of a task written
with other code. Two offline layers, each reported as its own class with its evidence:

- identity: a name the document gives its op, kernel, tiling data or binding (normalised by
  `dedup.names.op_name_key`: case, `_`, `Custom`/`V2`/`Kernel` affixes) equals a task's name.
- semantics: what the document states and does against the task signature
  (`schemas.tasks.TaskSignature`): the canonical ops its identifiers, AscendC calls and comments
  show (and the code shapes of `dedup.idioms`: a zero clamp is a relu), the task's name and
  `__init__` parameter words, the task's values and rank, and the structure a harness imposes
  (its constructor, its input shapes). The score is a weighted sum of those shares, printed
  with its parts, so a reader can redo it.

The fused-task rule holds in both layers: a task is claimed only by a document that shows every
op the task requires (`required_ops`), so a kernel that only does `tanh` never claims
`conv2d_min_tanh_tanh`. The document's own names are left out of that check (they would
otherwise prove themselves). A task of one op is a match of level "op" (a generic `Gelu` of an
operator library *is* a solution of the `gelu` task) with a lower score than a "fused" match.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from dedup.idioms import INDEX_INPUT, handwritten_ops, may_show_unworded
from dedup.names import op_name_key
from dedup.structure import (
    STRUCTURE_FLOOR,
    Structure,
    fitting_tasks,
    model_constructors,
    parameter_names,
    pinned_shapes,
    same_rank,
    shows_half_in_rank,
    task_structures,
    uniquely_fitting,
)
from dedup.ties import call_named_apart, of_the_ranks_checked, parameter_key, settle_tie, structurally_apart
from dedup.weak_tasks import (
    ARITHMETIC,
    CALL_OPENING,
    REDUCE_CALL,
    REDUCTION,
    WeakForm,
    arithmetic_op,
    epilogue_ops,
    form_of_task,
    may_show_a_form,
    performed_forms,
    performed_reductions,
)
from schemas import KernelUnit
from schemas.ascendc import HOST_MAIN_NAMES, operator_dir_of, operator_folder_of, split_unit_code
from schemas.taskops import (
    ACTIVATIONS,
    COLLECTIVES,
    COMPOSITES,
    GENERIC,
    IMPLEMENTED_WITH,
    NAME_STOP_WORDS,
    NOT_COMPUTATIONS,
    STRONG,
    WEAK,
    WORD_OPS,
    WORD_PREFIXES,
    implied_ops,
    line_keys,
    name_ops,
    ops_of_words,
    short_forms,
    split_identifier,
    strength,
    task_name_words,
    text_words,
    torch_ops,
)
from schemas.tasks import CandidateFacts, TaskMatch, TaskSignature

# A unit is read as its own files (the entry file and the headers of its operator directory)
# plus its host code (op definition, tiling), each cut to this many characters. Library headers
# an entry includes (catlass `include/`, a repository's shared helpers) state no task: reading
# them cost 26 s of 81 s of `dedup` on catlass (units of 20k-67k lines) and their helper names
# (`conv`, `relu` in a shared header of ops-fft) placed unrelated kernels on tasks. 64 KB holds
# the whole entry file and op definition of every golden solution and EvoKernel operator.
UNIT_SCAN_CHARS = 65_536
SEMANTIC_THRESHOLD = 0.55  # tuned on the dev split and the dev controls (README)
OP_LEVEL_DISCOUNT = 0.9  # a single-op task's score is scaled by this: users may want fused only
_WEIGHT = {STRONG: 1.0, "weak": 0.5, GENERIC: 0.2}
_PARTS = (0.4, 0.35, 0.1, 0.15)  # ops, words, spatial rank, values
# Task words: 0.7 x the share of the task's idf mass found + 0.3 x the mass found, full at 12 (a
# sibling whose extra words, `reverse`, `exclusive`, are found beats the shorter name they share).
_WORD_SHARE, _WORD_MASS, _FULL_MASS = 0.7, 0.3, 12.0
# Extra work lowers a score, an activation the task does not name twice as much: the steps of a
# fused task are mostly activations, so one more is a sign of another task, where a stray matmul
# or gather word is often a helper. Dev and held-out-a, renamed: 2 wrong placements fewer
# (conv3d_min_softmax claimed by a conv3d hardswish-relu-softmax row), no right one lost.
_EXTRA_PENALTY, _EXTRA_CAP = 0.06, 0.36
# Semantics places no single task when another scores within this of the best: the row's
# evidence does not tell them apart, and from TIE_FLOOR it names them all (`_tied_match`).
# Siblings differ by a word or a shape a renamed row rarely states: at 0.03, dev renamed placed
# 196 single tasks, 10 wrong (mostly conv siblings); at 0.07, 179, 3 wrong, and 37 of its 43
# ties name the truth (21 of 29 before). The flat plateau runs from 0.07 to 0.09 (README).
RUNNER_UP_MARGIN = 0.07
_COMMON_NUMBERS = frozenset({0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096})

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?<![\w.])\d{1,7}(?![\w.])")
# Number literals, floats included (`0.01f`, `1e-5`, `.5`): the values a solution hard-codes.
_VALUE = re.compile(
    r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\d{1,9})[fFlLuU]?(?![\w.])"
)
_TRIVIAL_VALUES = frozenset({0.0, 1.0})
# (a literal the text must hold, the pattern): the literal is a cheap test that skips the regex.
_NAME_PATTERNS = (
    ('"op"', re.compile(r'"op"\s*:\s*"(\w+)"')),
    ("OpDef", re.compile(r"class\s+(\w+)\s*:\s*public\s+OpDef")),
    ("OP_ADD", re.compile(r"OP_ADD\(\s*(\w+)")),
    ("BEGIN_TILING_DATA_DEF", re.compile(r"BEGIN_TILING_DATA_DEF\(\s*(\w+)")),
    ("REGISTER_TILING_DATA_CLASS", re.compile(r"REGISTER_TILING_DATA_CLASS\(\s*(\w+)")),
    ("__aicore__", re.compile(r"__aicore__\s+(?:inline\s+)?void\s+(\w+)\s*\(")),
    ("m.", re.compile(r'\bm\.(?:def|impl)\(\s*"(\w+)"')),
    ("EXEC_NPU_CMD", re.compile(r"EXEC_NPU_CMD\(\s*aclnn(\w+)")),
    ("custom_ops_lib", re.compile(r"custom_ops_lib\.(\w+)")),
)
# Names a document calls rather than defines: a device function, a library op launched from the
# binding (`EXEC_NPU_CMD(aclnnGroupNorm, ...)`), an op of the extension module.
_CALL_MARKS = frozenset({"__aicore__", "EXEC_NPU_CMD", "custom_ops_lib"})
_INPUT = re.compile(r'\bthis->Input\("(\w+)"\)|"input_desc"')
_OUTPUT = re.compile(r'\bthis->Output\("(\w+)"\)')
_ATTR = re.compile(r'\bthis->Attr\("(\w+)"\)')
_TILING_FIELD = re.compile(r"TILING_DATA_FIELD_DEF(?:_ARR)?\(\s*[\w:]+\s*,\s*(?:\d+\s*,\s*)?(\w+)")
# (`\s*(?:<...>\s*)?`, not `\s*(?:<...>)?\s*`: a name before 100 KB of spaces is one pass, not a square.)
_API = re.compile(r"\bAscendC::(\w+)|\b([A-Z][A-Za-z]+)\s*(?:<[^<>;()]{0,512}>\s*)?\(")
# The list is read up to its first `]` before a `,` or `}`, at most 4,000 characters on: unbounded,
# a hostile row of 3,700 unclosed `"input_desc": [` took 1.7 s per 100 KB, each scanning to the end.
_JSON_NAMES = re.compile(r'"(input_desc|output_desc|attr)"\s*:\s*\[(.{0,4000}?)\]\s*[,}]', re.S)
_RANK_WORD = re.compile(
    r"(?i)(?:conv|pool|pooling|norm|transpose|transposed|deconv|upsample)_?([123])d(?![a-z])"
    # the rank said before the op: "1-D max pooling", "a 2D convolution", "3-d transposed conv"
    r"|(?<![\w.-])([123])-?d\s{1,4}(?:(?:max|average|avg|transposed|depthwise)\s{1,4})?"
    r"(?:conv|pool|deconv|upsampl)"
)
_JSON_NAME = re.compile(r'"name"\s*:\s*"(\w+)"')
# The rank checks a host or binding makes of its input (`x.dim() == 5`, `GetDimNum() != 4`): a
# spatial op's rank is the largest such count less two (batch and channels), where no name says it.
_DIM_CHECK = re.compile(r"(?:dim\(\)|GetDimNum\(\)|\.ndim)\s*[!=]=\s*([3-5])(?!\d)")
# aclnnConvolution's flag: a binding that passes `transposed = false` does a plain convolution even
# though it also passes an output padding (a word that otherwise shows a transposed one).
_TRANSPOSED_FLAG = re.compile(r"\btransposed\s*=\s*(true|false)\b")
# A model that ends in a classification head (`num_classes`) is a network: a benchmark's fused
# task is a block of it, not what it solves. Dev and held-out-a, renamed: 3 networks (LeNet-5,
# EfficientNet-B1, Swin MLP) were placed on a fused conv task their first block does.
_CLASSIFIER = re.compile(r"\bnum_?classes\b", re.I)
# A binding handed a list of tensors (a parameter `std::vector<at::Tensor> convW`) applies layers
# in turn: a network or a stack of recurrent layers, never a fused task of one heavy op (a VGG
# whose custom kernel is a conv, a relu and a bias had been placed on `conv2d_relu_bias_add`).
_LAYER_LIST = re.compile(
    r"[(,]\s{0,64}(?:const\s{1,8})?(?:std::vector\s{0,4}<\s{0,4}(?:at|torch)::Tensor\s{0,4}>|at::TensorList)"
    r"\s{0,8}&?\s{0,8}\w{1,64}\s{0,8}[,)=]"
)
_LAYERED = frozenset({"lstm", "gru", "rnn"})
# A header a file includes (`#include "lib/matmul_intf.h"`, part of many kernels' boilerplate)
# is not a computation it does.
_INCLUDE_LINE = re.compile(r"^[ \t]{0,64}#[ \t]{0,64}include\b[^\n]*", re.M)


@functools.lru_cache(maxsize=1 << 16)
def _name_key(name: str, keep_version: bool = False) -> str:
    return op_name_key(re.sub(r"(?:Tiling)?Data$|_?tiling$|(?:_impl)?_npu$|Kernel$", "", name), keep_version)


def required_ops(signature: TaskSignature) -> list[str]:
    """The ops a document must show to claim this task: the non-generic ops the task's name
    states, or, when its name states none (`resnet18`), those `forward` computes."""
    named = [op for op in name_ops(signature.task) if strength(op) != GENERIC]
    if not named:
        return sorted({op for op in signature.ops if strength(op) != GENERIC})
    # A weak word of the name that `forward` does not compute names another step: the "sum" of
    # `conv_transpose3d_sum_residual_add_...` is its bias add, the "max" of `conv3d_max_...` a
    # max pool. Required, it had kept rows that do every step of the reference from the task.
    computed = set(signature.forward_ops)
    if computed:
        computed |= implied_ops(computed)
        kept = {op for op in named if strength(op) != WEAK or op in computed}
        # A strong op of the name that `forward` does not do is a misnamed task's
        # (`gemm_batch_norm_gelu_group_norm_mean_relu` does no group norm): a row that does
        # what the reference does solves it.
        forward = set(signature.forward_ops)
        kept = {op for op in kept if not _done_nowhere(op, forward)}
        # ... unless that leaves the task its heavy op alone, a plain conv's sibling (a plain
        # transposed conv had been placed on `conv_transpose3d_sum_residual_add_...`)
        if len(distinct_ops(kept)) >= 2:
            named = sorted(kept)
    return sorted(set(named))


def _done_nowhere(op: str, forward: set[str]) -> bool:
    """Whether `forward` neither does this strong op nor an op it is carried out with (a swish
    written out as `x * torch.sigmoid(x)` is done, and a global average pool as a mean)."""
    done_with = implied_ops({op}) | ({"mean"} if op == "avg_pool" else set())
    return strength(op) == STRONG and op not in forward and not done_with & forward


def scored_ops(signature: TaskSignature, required: frozenset[str]) -> frozenset[str]:
    """The ops a task's score compares with a row's: its name's and its `forward`'s, less the steps
    an attention is carried out with (`IMPLEMENTED_WITH`) where its name does not state them. A
    multi-query attention written out as matmuls and a softmax and a causal one that calls
    `nn.MultiheadAttention` are the same computation; counted, those steps had let the written-out
    siblings outscore every attention a row did (fresh rows: causal, windowed and cross attentions
    placed on `multi_query_attention`). Only attention: an LSTM's matmul is as often its separate
    output layer (`lstm_cn`'s `fc`), which rows do too."""
    ops = set(signature.ops) | required
    if "attention" not in ops:
        return frozenset(ops)
    return frozenset(ops - (implied_ops({"attention"}) - set(name_ops(signature.task))))


def is_fused(required: Sequence[str]) -> bool:
    return len(required) >= 2


def name_states_ops(signature: TaskSignature) -> bool:
    """Whether the task's name states its computation (`conv2d_min_tanh`), unlike a network's
    (`regnet`, `densenet121`): only the former can be recognised from what a kernel does."""
    return any(strength(op) != GENERIC for op in name_ops(signature.task))


def distinct_ops(required: frozenset[str] | set[str]) -> frozenset[str] | set[str]:
    """A task's ops with a transposed convolution counted once: its words show a convolution
    too, and together they are one op."""
    return required - {"conv"} if "conv_transpose" in required else required


def semantically_claimable(
    required: frozenset[str], inferred: Sequence[str] = (), incidental: Sequence[str] = ()
) -> bool:
    """The evidence semantics needs: a single-op task's one strong op, or two strong ops of a
    fused task. A fused task of one strong op and weak ones (`matmul_min_subtract`) is left to
    identity: `min`, `sum`, `mean` are words every matmul kernel uses for its tiling. An op the
    document writes out by hand (`inferred`) is not one of a fused task's two: a group norm's
    mean is not an average pool. An op shown only by a code shape that also serves other ends
    (`incidental`, `dedup.idioms`: a zero clamp) never claims a single-op task alone."""
    # A transposed conv kernel that says "sum" somewhere does not claim `conv_transpose3d_sum_...`.
    strong = sum(1 for op in distinct_ops(required) if strength(op) == STRONG and op not in inferred)
    if not is_fused(sorted(required)):
        strong = sum(1 for op in required if strength(op) == STRONG and op not in incidental)
    return strong >= 2 if is_fused(sorted(required)) else strong == 1


def candidate_facts(
    code: str, extra_names: Sequence[str] = (), full: bool = True
) -> tuple[CandidateFacts, set[str]]:
    """What a document states and does, and its words with the normalised keys of the names it
    gives itself. Its ops come from every identifier and comment word except those names.
    `full=False` leaves out the facts only a report shows (op definition, tiling, calls)."""
    facts = CandidateFacts()
    names: list[str] = []
    functions: list[str] = []
    for mark, pattern in _NAME_PATTERNS:
        if mark in code:
            (functions if mark in _CALL_MARKS else names).extend(pattern.findall(code))
    names += [n for n in extra_names if n]
    facts.names = list(dict.fromkeys([*names, *functions]))
    facts.function_names = sorted(set(functions) - set(names))
    own = {k for k in (_name_key(n) for n in facts.names) if len(k) >= 3}
    stream = _IDENT.findall(
        NOT_COMPUTATIONS.sub(" ", _INCLUDE_LINE.sub(" ", code) if "include" in code else code)
    )
    words: set[str] = set()
    called = set(_CALLED_ADJECTIVE.findall(code)) if any(w in code for w in _ADJECTIVES) else set()
    for ident in dict.fromkeys(stream):  # each distinct identifier once, in first-seen order
        if own and len(ident) > 6 and _name_key(ident) in own:
            continue
        words.update(split_identifier(ident))
        if ident in _ADJECTIVES and ident not in called:
            continue
        for op, word in _identifier_ops(ident):
            facts.ops.setdefault(op, word)
    for op, word in _prose_pairs(stream):
        facts.ops.setdefault(op, word)
    words |= short_forms(facts.ops.values())
    # Collective communication is work no single-device benchmark task does: extra work against
    # every task (lcal's matmul-and-all-gather tiling: 5 of 69 files on a matmul task -> 0).
    if collective := COLLECTIVES.search(code):
        facts.ops.setdefault("collective", collective.group(0))
    _drop_words_of_other_trades(facts, code)
    for op, shown, incidental in handwritten_ops(code):
        if op not in facts.ops:
            facts.ops[op] = shown
            (facts.incidental if incidental else facts.handwritten).append(op)
        elif not incidental:
            facts.handwritten.append(op)  # a word said it, and the code's shape does it
    for op, parts in COMPOSITES:
        if op not in facts.ops and all(p in facts.ops for p in parts):
            facts.ops[op] = "+".join(facts.ops[p] for p in parts)
            facts.inferred.append(op)
            if len(parts) == 1:
                # One op renamed (a mean read as an average pool) completes a fused task; alone
                # it claims no single-op task: a mean reduction, an RMS norm's or a loss's mean
                # had tied with the three average pools.
                facts.incidental.append(op)
    # An index copy or add is a scatter of rows, an index select a gather of columns: a renamed
    # row of one shows the scatter or gather it does, and the task's own word is gone.
    for op, done_as in _INDEX_DONE_AS.items():
        if done_as in facts.ops and op not in facts.ops:
            facts.ops[op] = facts.ops[done_as]
            facts.inferred.append(op)
    facts.dims = sorted({int(a or b) for a, b in _RANK_WORD.findall(code)}) or _checked_rank(code)
    _transposed_flag(code, facts)
    facts.constructors = model_constructors(code)
    facts.pinned_shapes = pinned_shapes(code)
    facts.numbers = sorted({int(n) for n in _NUMBER.findall(code)} - _COMMON_NUMBERS)
    facts.values = sorted(literal_values(code))
    if full:
        _stated_facts(code, facts)
    return facts, own | words


# An FFT named in an identifier (`fft1_d_b`, `FFTCore`, `do_rfft`; not `offTile`), a DFT, Fourier.
_FOURIER = re.compile(r"(?<![A-Za-z])[irIR]?(?:fft|FFT|Fft)|\b(?:dft|DFT)\b|[Ff]ourier|[Tt]widdle")


# AscendC's elementwise product written into a buffer named after it: `Mul(prod, a, b, n)`
_PRODUCT_BUFFER = re.compile(
    r"\bMul\s{0,8}(?:<[^<>;]{0,64}>)?\s{0,8}\(\s{0,8}\w{0,32}[pP]rod\w{0,32}\s{0,8},"
)


COLLECTIVE_STEPS = frozenset({"gather", "scatter"})  # what a collective's words name in its trade


# The index tasks done as a scatter or a gather (`IMPLEMENTED_WITH`), each with the one it is done as.
_INDEX_DONE_AS = {op: IMPLEMENTED_WITH[op][0] for op in ("index_copy", "index_add", "index_select")}


def _drop_words_of_other_trades(facts: CandidateFacts, code: str) -> None:
    """Op words that name something else in a document's trade. In a document that does
    collective communication, "gather" and "scatter" are its collectives' steps
    (`gatherQueIdx` beside an all-gather). A bare "norm" is a norm only beside the sum of
    squares or magnitudes it takes (a square root or an absolute value, and a sum): an FFT's
    `norm` is its normalisation mode. Dev controls: ops-fft 3 of 11 units flagged as `l2_norm`
    -> 0, lcal's one unit as `gather` -> 0; dev renamed solutions: no right placement lost."""
    if "collective" in facts.ops:
        for op in COLLECTIVE_STEPS:
            facts.ops.pop(op, None)
    # AscendC's vector `Gather` moves lanes by offsets it computes (a transpose, a shift, an
    # upsample's columns); torch's gather reads an index tensor the row is given. Fresh rows: a
    # cumsum, an exclusive cumsum and a nearest upsample had tied with `gather` for their Gather.
    # Its `Scatter` likewise writes lanes to offsets it computes (a tridiagonal solver's frames).
    if ("gather" in facts.ops or "scatter" in facts.ops) and not INDEX_INPUT.search(code):
        facts.ops.pop("gather", None)
        facts.ops.pop("scatter", None)
    # A Fourier transform is matrix products (a DFT matrix, its twiddle factors), and no
    # benchmark task is one: its products are the transform's (ops-fft, read as ingested units:
    # 2 of 11 placed on matrix-product tasks).
    if "matmul" in facts.ops and _FOURIER.search(code):
        del facts.ops["matmul"]
    if facts.ops.get("norm") == "norm" and not ({"sqrt", "abs"} & facts.ops.keys() and "sum" in facts.ops):
        del facts.ops["norm"]
    # `num_groups` is a group norm's beside the root of a variance it takes; a grouped GEMM's
    # number of groups is not (the EvoKernel held-out control, read: a GroupedGEMM kernel was
    # placed on `gemm_group_norm_min_bias_add`).
    if facts.ops.get("group_norm") == "num_groups" and "sqrt" not in facts.ops:
        del facts.ops["group_norm"]
    # A buffer of products named so (`LocalTensor<float> prod`, `Mul(prod, w, x, n)` before a
    # `ReduceSum`: a dot product's) is no product reduction, nor is its "product scratch".
    if facts.ops.get("prod") in ("prod", "product") and _PRODUCT_BUFFER.search(code):
        del facts.ops["prod"]


def _checked_rank(code: str) -> list[int]:
    counts = [int(n) for n in _DIM_CHECK.findall(code)] if "dim" in code or "Dim" in code else []
    return [max(counts) - 2] if counts else []


def _transposed_flag(code: str, facts: CandidateFacts) -> None:
    flags = set(_TRANSPOSED_FLAG.findall(code)) if "transposed" in code else set()
    if flags == {"false"} and facts.ops.get("conv_transpose") == "output_padding":
        del facts.ops["conv_transpose"]
    elif flags == {"true"}:
        facts.ops.setdefault("conv", "transposed = true")
        facts.ops.setdefault("conv_transpose", "transposed = true")


def literal_values(text: str) -> set[float]:
    """Every number literal of a text, as a magnitude (a sign is not part of a C literal)."""
    found = set()
    for literal in _VALUE.findall(text):
        try:
            found.add(round(abs(float(literal)), 6))
        except ValueError:
            continue
    return found - _TRIVIAL_VALUES


# Words that make an identifier a switch or a mode of another instruction (`enRelu`, `reluMode`,
# `ReluEnable`: the relu stage of a matmul's data copy, often off), not a computation it does.
_SWITCH_WORDS = frozenset({"en", "enable", "enabled", "mode", "modes", "flag", "flags", "type", "types"})
# Words of a position in a flat layout: "linear" beside them is no layer.
_LAYOUT_WORDS = frozenset(
    {"idx", "index", "indices", "offset", "offs", "pos", "position", "id", "addr", "plane", "flat"}
)


# Words that show an op as a name (`nn.Linear`, `q_linear`) and a property as a bare lower-case
# word: "the linear transform L" of a block cipher, a "linear index". The seven control kernels
# of tests/fixtures/controls were each placed on a matmul task by such a comment. Called
# (`F.linear(x, w)`), the bare word is the layer again.
_ADJECTIVES = frozenset({"linear"})
_CALLED_ADJECTIVE = re.compile(r"\b(" + "|".join(sorted(_ADJECTIVES)) + r")\s*\(")


@functools.lru_cache(maxsize=1 << 16)
def _identifier_ops(ident: str) -> tuple[tuple[str, str], ...]:
    words = split_identifier(ident)
    if len(words) > 1 and any(w in _SWITCH_WORDS for w in words):
        return ()
    if "linear" in words and any(w in _LAYOUT_WORDS for w in words):
        words = [w for w in words if w != "linear"]  # a flat position (`linearIdx`, `planeLinear`)
    return tuple(ops_of_words(words).items())


def _prose_pairs(stream: list[str]) -> list[tuple[str, str]]:
    """Ops two consecutive words show together ("leaky relu", "max pool" in a comment)."""
    found: list[tuple[str, str]] = []
    for a, b in itertools.pairwise(stream):
        if a.islower() and a in WORD_PREFIXES:
            second = b.lower()
            # a plural names the op as the singular does ("two average pools", "max pools")
            for word in (second, second[:-1]) if len(second) > 3 and second.endswith("s") else (second,):
                for key in (a + word, f"{a}_{word}"):
                    found.extend((op, key) for op in WORD_OPS.get(key, ()))
    return found


def _stated_facts(code: str, facts: CandidateFacts) -> None:
    if "TILING_DATA_FIELD_DEF" in code:
        facts.tiling_fields = list(dict.fromkeys(_TILING_FIELD.findall(code)))
    _op_definition(code, facts)
    from schemas.ascendc.catalog import compute_api_names  # the catalog: read only for a report

    compute = compute_api_names()
    facts.apis = [c for c in dict.fromkeys(a or b for a, b in _API.findall(code)) if c in compute][:40]


def _stated_definition(code: str) -> CandidateFacts:
    """The facts of the op definition alone (`_op_definition`), for settling a tie."""
    stated = CandidateFacts()
    _op_definition(code, stated)
    return stated


def _op_definition(code: str, facts: CandidateFacts) -> None:
    """The op definition's inputs, outputs and attributes (its host code's `this->Input("x")`, a
    submission's JSON `input_desc`)."""
    if "this->" in code:
        facts.inputs = [m for m in _INPUT.findall(code) if m]
        facts.outputs = list(_OUTPUT.findall(code))
        facts.attrs = list(_ATTR.findall(code))
    for kind, body in _JSON_NAMES.findall(code) if "_desc" in code else ():
        target = {"input_desc": facts.inputs, "output_desc": facts.outputs, "attr": facts.attrs}[kind]
        target.extend(_JSON_NAME.findall(body))
    # A submission states its op definition twice (its JSON and its host code): each name once.
    facts.inputs, facts.outputs, facts.attrs = (
        list(dict.fromkeys(v)) for v in (facts.inputs, facts.outputs, facts.attrs)
    )


# Every vocabulary word of a strong op, in lower case without `_`; "pool" too, since
# `COMPOSITES` makes a strong op of it. Tested as substrings of the squashed text (`in`: C speed).
_STRONG_STEMS = tuple(
    sorted(
        {k.replace("_", "") for k, ops in WORD_OPS.items() if any(strength(o) == STRONG for o in ops)}
        | {"pool"}
    )
)


@dataclass(slots=True)
class TaskIndex:
    """The benchmark's tasks prepared once for every shard of the training side."""

    signatures: list[TaskSignature]
    required: list[frozenset[str]] = field(default_factory=list)
    names: dict[str, list[int]] = field(default_factory=dict)  # task name key -> tasks
    # the same with versions kept: `mobilenet_v1` and `mobilenet_v2` share the key "mobilenet"
    versioned_names: dict[str, list[int]] = field(default_factory=dict)
    words: list[dict[str, float]] = field(default_factory=list)  # task word -> idf weight
    constants: list[frozenset[int]] = field(default_factory=list)
    values: list[dict[float, float]] = field(default_factory=list)  # stated value -> idf weight
    value_idf: dict[float, float] = field(default_factory=dict)  # any task's value -> idf weight
    groups: dict[frozenset[str], list[int]] = field(default_factory=dict)  # required set (empty too) -> tasks
    named: list[bool] = field(default_factory=list)  # the task's name states its ops
    scored_ops: list[frozenset[str]] = field(default_factory=list)  # `scored_ops`
    classifiers: set[int] = field(default_factory=set)  # tasks whose model has `num_classes`
    # ... and those whose inputs are made with it too (`cross_entropy_loss`: logits of num_classes)
    of_classes: set[int] = field(default_factory=set)
    # value -> tasks of weak ops only (`sum_reduction_over_a_dimension`, `matmul_min_subtract`)
    # that state it: such a task is claimed by semantics only on the numbers it states.
    weak_by_value: dict[float, list[int]] = field(default_factory=dict)
    # ("constructor", parameters) and ("shape", dimensions) -> the tasks that state it (`fitting_tasks`)
    structures: dict[Structure, list[int]] = field(default_factory=dict)
    # a constructor's parameter names alone (annotations and defaults dropped) -> the tasks
    constructor_names: dict[tuple[str, ...], list[int]] = field(default_factory=dict)
    name_screen: re.Pattern[str] | None = None  # any name key as a substring (_may_match)
    # a word of task names -> how many task names have it (`dedup.ties.named_apart`)
    name_word_tasks: dict[str, int] = field(default_factory=dict)
    # a constructor parameter, lower case without `_` -> how many tasks take it (`dedup.ties`)
    parameter_tasks: dict[str, int] = field(default_factory=dict)
    # form -> op -> the single-op tasks of that weak op in that form (`dedup.weak_tasks`:
    # `sum_reduction_over_a_dimension`, `clamp_broadcast`)
    weak_forms: dict[WeakForm, dict[str, list[int]]] = field(default_factory=dict)
    # Words one of which a row must say for an arithmetic task to be within its reach (`_may_match`):
    # the words of those tasks but their op names; None: any row that does the arithmetic may be.
    arithmetic_words: re.Pattern[str] | None = None
    # A line that builds a network's model (`schemas.taskops.model_lines`) -> the networks whose
    # reference has it, its idf weight over every task's lines, and each network's total weight.
    network_lines: dict[str, list[int]] = field(default_factory=dict)
    line_weight: dict[str, float] = field(default_factory=dict)
    network_line_total: dict[int, float] = field(default_factory=dict)
    # a network's name run together, lower case (`densenet121`, `googlenetinceptionv1`) -> the
    # network (`_stated_network`)
    stated_networks: dict[str, int] = field(default_factory=dict)
    # the first words of two or three networks' names, run together ("netvlad", "mobilenet")
    stated_families: dict[str, list[int]] = field(default_factory=dict)
    # How many tasks to keep for a judge (`curate audit --judge-url`) when semantics does not
    # place a document, or as alternatives to the one it places; 0 without a judge.
    judge_candidates: int = 0


# Task words that are everyday words of code ("upper bound", "lower half") count only beside the
# word they qualify in the task's name: a batched matmul that says "upper" is no
# `matmul_for_upper_triangular_matrices` (batch 7, read: placed so).
_QUALIFIED = {"upper": "triangular", "lower": "triangular"}


def _task_words(sig: TaskSignature) -> set[str]:
    words = set(task_name_words(sig.task))
    for param in sig.init_params:
        words.update(split_identifier(param))
    return {w for w in words if w not in NAME_STOP_WORDS and len(w) >= 2 and not w.isdigit()}


def task_index(signatures: list[TaskSignature]) -> TaskIndex:
    index = TaskIndex(signatures)
    task_words = [_task_words(s) for s in signatures]
    df: dict[str, int] = {}
    for words in task_words:
        for w in words:
            df[w] = df.get(w, 0) + 1
    n = max(1, len(signatures))
    task_values = [{round(abs(v), 6) for v in s.values} - _TRIVIAL_VALUES for s in signatures]
    value_df: dict[float, int] = {}
    for values in task_values:
        for v in values:
            value_df[v] = value_df.get(v, 0) + 1
    for t, sig in enumerate(signatures):
        required = frozenset(required_ops(sig))
        index.required.append(required)
        index.named.append(name_states_ops(sig))
        index.scored_ops.append(scored_ops(sig, required))
        together = _run_together(sig.task)
        if not index.named[t] and len(sig.model_lines) >= NETWORK_MIN_LINES and len(together) >= 5:
            index.stated_networks[together] = t
        index.groups.setdefault(required, []).append(t)
        key = op_name_key(sig.task)
        if len(key) >= 2:
            index.names.setdefault(key, []).append(t)
            index.versioned_names.setdefault(op_name_key(sig.task, keep_version=True), []).append(t)
        index.words.append({w: math.log(1 + n / df[w]) for w in task_words[t]})
        index.constants.append(frozenset(sig.constants) - _COMMON_NUMBERS)
        index.values.append({v: math.log(1 + n / value_df[v]) for v in task_values[t]})
        for structure in task_structures(sig):
            index.structures.setdefault(structure, []).append(t)
        if "num_classes" in parameter_names(sig.init_params):
            index.classifiers.add(t)
        if t in index.classifiers or "num_classes" in sig.settings:
            index.of_classes.add(t)
        if sig.constructor:
            index.constructor_names.setdefault(parameter_names(sig.constructor), []).append(t)
        for param in {parameter_key(p) for p in sig.init_params}:
            index.parameter_tasks[param] = index.parameter_tasks.get(param, 0) + 1
        name_words = task_name_words(sig.task)
        for word in set(name_words):
            index.name_word_tasks[word] = index.name_word_tasks.get(word, 0) + 1
        form = form_of_task(name_words, required, sig.ops) if index.named[t] or not required else None
        if form is not None:
            index.weak_forms.setdefault(form[0], {}).setdefault(form[1], []).append(t)
    index.value_idf = {v: math.log(1 + n / d) for v, d in value_df.items()}
    _index_network_families(index)
    _index_network_lines(index)
    index.arithmetic_words = _arithmetic_words(index)
    for t, required in enumerate(index.required):
        if required and index.named[t] and not semantically_claimable(required):
            for v in index.values[t]:
                index.weak_by_value.setdefault(v, []).append(t)
    return index


# A network's reference builds its layers in many lines outside `forward` (VGG-16: 20); a
# broadcast's or an in-place update's states two or three inputs. Only a network's name, said in
# a row, is read as the task it solves (`_stated_network`): "in-place update" is everyday prose.
NETWORK_MIN_LINES = 5
_SEPARATORS = re.compile(r"[\s_\-]+")
# One layer of a named network ("AlexNet's first layer", "VGG16's 3rd conv", "the AlexNet stem")
# is no network.
_A_NETWORKS_LAYER = re.compile(
    r"(?i)\b[\w-]{1,32}'s\s{1,4}(?:first|second|third|fourth|fifth|last|final|opening|\d{1,2}(?:st|nd|rd|th))"
    r"\s{1,4}(?:[\w-]{1,24}\s{1,4})?(?:layer|conv\w{0,12})\b"
    r"|\b[\w-]{1,32}(?:'s)?\s{1,4}stem\b"
)


def _run_together(text: str) -> str:
    """`text` lower case with its spaces, `_` and `-` removed: "DenseNet-121" -> "densenet121"."""
    return _SEPARATORS.sub("", text.lower())


def _stated_network(index: TaskIndex, together: str) -> int | None:
    """The network a row names (`ResNet-18`, `VGG 19`, `GoogLeNet Inception v1`), the longest
    name where several are said (a `densenet121 dense block` is the block); None if two names of
    one length are. `together`: the row's text as `_run_together` makes it."""
    name = _longest_said(index.stated_networks, together)
    return None if name is None else index.stated_networks[name]


def _longest_said(names: Iterable[str], together: str) -> str | None:
    """The longest of `names` that `together` holds; None if none does, or two of one length do."""
    found = sorted(((len(k), k) for k in names if k in together), reverse=True)
    if not found or (len(found) > 1 and found[0][0] == found[1][0]):
        return None
    return found[0][1]


NETWORK_FAMILY_MAX = 3


def _index_network_families(index: TaskIndex) -> None:
    """The names networks share their first words by (`net_vlad_no_ghost_clusters` and
    `net_vlad_with_ghost_clusters`: "netvlad"; "mobilenet"), run together, for at most
    NETWORK_FAMILY_MAX networks and no network's whole name: two words or more, or a word that
    names a network ("...net"); one word else is everyday code (`squeeze` of `squeeze_net`)."""
    families: dict[str, set[int]] = {}
    for t in index.stated_networks.values():
        words = index.signatures[t].task.split("_")
        for k in range(1, len(words)):
            prefix = "".join(words[:k]).lower()
            if len(prefix) >= 5 and (k >= 2 or prefix.endswith("net")):
                families.setdefault(prefix, set()).add(t)
    index.stated_families = {
        name: sorted(tasks)
        for name, tasks in families.items()
        if 2 <= len(tasks) <= NETWORK_FAMILY_MAX and name not in index.stated_networks
    }


def _stated_family(index: TaskIndex, together: str, best: SemanticScore | None) -> list[int]:
    """The networks of the one family a row names ("NetVLAD"; `together` as `_stated_network`
    takes it), the longest name where several are said; [] if none, or two of one length, is,
    or if the task placed (`best`) is of that family's name (`efficientnet_mb_conv`, a block an
    EfficientNet row names its network by)."""
    name = _longest_said(index.stated_families, together)
    if name is None or (
        best is not None and _run_together(index.signatures[best.task].task).startswith(name)
    ):
        return []
    return index.stated_families[name]


def _index_network_lines(index: TaskIndex) -> None:
    line_df: dict[str, int] = {}
    for sig in index.signatures:
        for line in sig.model_lines:
            line_df[line] = line_df.get(line, 0) + 1
    n = max(1, len(index.signatures))
    for t, sig in enumerate(index.signatures):
        if index.named[t] or not sig.model_lines:
            continue
        for line in sig.model_lines:
            index.network_lines.setdefault(line, []).append(t)
            index.line_weight[line] = math.log(n / line_df[line])
        index.network_line_total[t] = sum(index.line_weight[line] for line in sig.model_lines)


def _arithmetic_words(index: TaskIndex) -> re.Pattern[str] | None:
    """The words a row must say one of for an arithmetic task (`add_bias_broadcast`) to reach the
    threshold, provided none reaches it on its op name alone (`Add` is in most kernels; the
    other words, `bias`, `broadcast`, `scalar`, are not): the best score each could get with
    only its op names said and every other part full."""
    tasks = [t for tasks in index.weak_forms.get(ARITHMETIC, {}).values() for t in tasks]
    words: set[str] = set()
    for t in tasks:
        weights = index.words[t]
        found = sum(v for w, v in weights.items() if w in ARITHMETIC.ops)
        parts = (1.0, _word_share(weights, found), bool(index.signatures[t].dims), bool(index.values[t]))
        if OP_LEVEL_DISCOUNT * sum(p * w for p, w in zip(_PARTS, parts, strict=True)) >= SEMANTIC_THRESHOLD:
            return None
        words |= weights.keys() - ARITHMETIC.ops
    return substring_screen(words) if tasks else None


def _word_share(weights: dict[str, float], found: float) -> float:
    """The words part of a score: `found` of a task's word weights `weights`, as a share of them
    and as a mass (full at _FULL_MASS)."""
    return _WORD_SHARE * found / (sum(weights.values()) or 1.0) + _WORD_MASS * min(1.0, found / _FULL_MASS)


@dataclass(slots=True)
class SemanticScore:
    task: int
    score: float
    ops: float
    words: float
    constants: float
    matched_ops: list[str]
    shared_numbers: list[float]


def semantic_score(
    index: TaskIndex, t: int, facts: CandidateFacts, words: set[str], values: frozenset[float]
) -> SemanticScore:
    sig = index.signatures[t]
    task_ops = set(index.scored_ops[t])
    helpers = implied_ops(task_ops) - task_ops  # a conv's matmul, a mish's softplus: not extra work
    inferred = _not_extra_work(facts)
    shown = {op for op in facts.ops if strength(op) == STRONG and op not in helpers and op not in inferred}
    shown |= {op for op in task_ops if op in facts.ops}
    both = sum(_WEIGHT[strength(op)] for op in task_ops & shown)
    total = sum(_WEIGHT[strength(op)] for op in task_ops) + sum(_WEIGHT[strength(op)] for op in shown)
    ops = 2 * both / total if total else 0.0  # Dice: the task explained and the document explained
    present = sorted(task_ops & shown)
    weights = index.words[t]
    found = (w for w in weights if w in words and _QUALIFIED.get(w, w) in words)
    word_share = _word_share(weights, sum(weights[w] for w in found))
    stated = index.values[t]
    shared = sorted(v for v in stated if v in values)
    constants = _value_agreement(index, stated, shared, values)
    task_dims, dims = set(sig.dims), set(facts.dims)
    rank = len(task_dims & dims) / len(task_dims | dims) if task_dims and dims else 0.0
    extra = sum(
        1 + (index.named[t] and op in ACTIVATIONS)
        for op in shown
        if strength(op) == STRONG and op not in task_ops
    )
    score = _PARTS[0] * ops + _PARTS[1] * word_share + _PARTS[2] * rank + _PARTS[3] * constants
    score -= min(_EXTRA_CAP, _EXTRA_PENALTY * extra)
    if not is_fused(sorted(index.required[t])):
        score *= OP_LEVEL_DISCOUNT
    matched = [f"{op} ({facts.ops[op]})" for op in present]
    return SemanticScore(t, round(max(score, 0.0), 4), ops, word_share, constants, matched, shared)


# A task of weak ops only (`matmul_min_subtract`: one strong op; `sum_reduction`: none) is left to
# identity unless the row states at least this many of the task's numbers, agreeing with them at
# least this much (`_value_agreement`): a kernel specialised to the task's shapes and constants.
# Dev: +2 right, no wrong placement, no control flagged (README).
VALUE_CLAIM_SHARED = 3
VALUE_CLAIM_AGREEMENT = 0.4


def _stated_weak_tasks(
    index: TaskIndex, numbers: frozenset[float], present: set[str], dims: set[int]
) -> list[int]:
    """Weak-op tasks whose required ops the row shows, whose numbers it states and whose rank it
    does not contradict (an inverted map from value to task: rows that state none cost one dict
    lookup per number)."""
    counts: dict[int, int] = {}
    for v in numbers:
        for t in index.weak_by_value.get(v, ()):
            counts[t] = counts.get(t, 0) + 1
    return [
        t
        for t, c in counts.items()
        if c >= VALUE_CLAIM_SHARED and index.required[t] <= present and same_rank(index, t, dims)
    ]


def _value_agreement(
    index: TaskIndex, stated: dict[float, float], shared: list[float], values: frozenset[float]
) -> float:
    """Weighted Dice of the task's values and the document's values that some task states: a
    sibling whose values are a subset of the document's (`kernel_size 3` of `(3, 5, 7)`) loses to
    the task that states them all."""
    if not stated:
        return 0.0
    both = sum(stated[v] for v in shared)
    doc = sum(index.value_idf.get(v, 0.0) for v in values)
    return 2 * both / (sum(stated.values()) + doc) if doc else 0.0


# The judge's candidates are recall-oriented: tasks whose required ops the document shows but for
# at most one (a word-reading misses a hand-written relu or layer norm; the judge checks that every
# step is done), or that require none (a broadcast add: ranked by its words), scoring at least
# JUDGE_FLOOR, the best JUDGE_CANDIDATES of them. With a judge that always answers right, the right
# task is among them for 0.82 of renamed solutions (dev and held-out), 1.3 pairs per document.
JUDGE_CANDIDATES = 4
JUDGE_FLOOR = 0.4
# Tasks tied within RUNNER_UP_MARGIN are flagged together from this score on (`_tied_match`); at
# 0.55, 4 of ops-fft's 11 units were flagged (a DFT's matrix product tied between matmul tasks).
TIE_FLOOR = 0.6
# Below the threshold, siblings of one strong op (`lstm_hn`, `lstm_cn`; `matmul_with_transposed_a`,
# `_b`) that tie from this score on are told apart by what the row states of its structure
# (`_sibling_apart`): the state it returns, the operand it transposes. Batches 1-8 renamed: 295 / 16
# -> 301 / 16 (a flat plateau from 0.35 to 0.45); the words that settle ties above the threshold
# (`named_apart`) are not read here: "sparse" placed 14 more sgl-kernel-npu files.
SIBLING_FLOOR = 0.4
# ... and one that leads its nearest sibling by this much is placed (`_clear_of_its_siblings`):
# batches 1-8 and 12-13 renamed +1 right each, none wrong; at 0.1, 14 more ops-sparse files.
SIBLING_LEAD = 0.15


def _judge_candidates(
    index: TaskIndex,
    facts: CandidateFacts,
    words: set[str],
    numbers: frozenset[float],
    placed: int,
    fits: set[int],
) -> list[TaskMatch]:
    """Tasks a judge is asked about, other than the one semantics `placed` (-1): those whose
    structure the row repeats (`fits`) first, whatever their score, then the best scoring."""
    present = set(facts.ops)
    pool = {
        t
        for required, tasks in index.groups.items()
        if (required & present and len(required - present) <= 1) or not required
        for t in tasks
    }
    scored = [semantic_score(index, t, facts, words, numbers) for t in (pool | fits) - {placed}]
    ranked = sorted(
        (s for s in scored if s.score >= JUDGE_FLOOR or s.task in fits),
        key=lambda s: (s.task not in fits, -s.score, s.task),
    )
    room = index.judge_candidates - (placed >= 0)
    return [_scored_match(index, s, "candidate") for s in ranked[:room]]


def _level(index: TaskIndex, t: int) -> str:
    """ "fused" for a task of several required ops, "op" for a single-op task."""
    return "fused" if is_fused(sorted(index.required[t])) else "op"


def _scored_match(index: TaskIndex, scored: SemanticScore, layer: str) -> TaskMatch:
    level = _level(index, scored.task)
    confidence = _confidence(level, scored.score) if layer == "semantics" else "low"
    match = TaskMatch(-1, scored.task, layer, level, scored.score, confidence)
    match.matched_ops, match.shared_numbers = scored.matched_ops, scored.shared_numbers
    return match


def _confidence(level: str, score: float) -> str:
    if level == "fused" and score >= 0.6:
        return "high"
    return "medium" if score >= 0.55 or level == "fused" else "low"


def match_document(
    code: str,
    index: TaskIndex,
    extra_names: Sequence[str] = (),
    threshold: float = SEMANTIC_THRESHOLD,
    prose: str = "",
) -> tuple[TaskMatch | None, CandidateFacts]:
    """The task one training document solves (identity first, then semantics), or None.
    `prose`: the row's own text beside its code (`unit_prose`); read only when the code passes
    the pre-test, for its words and numbers: the ops a task requires must be in the code."""
    # With a judge, every row is scanned: its candidates include tasks of weak ops only
    # (`sum_reduction_over_a_dimension`), whose words nearly every row has.
    if not index.judge_candidates and not _may_match(code, index, extra_names):
        return None, CandidateFacts()
    facts, words = candidate_facts(code, extra_names, full=False)
    present = set(facts.ops)
    numbers = frozenset(facts.values)
    if prose:
        said = text_words(prose)
        words = words | set(said) | short_forms(ops_of_words(said).values())
        numbers = numbers | literal_values(prose)
    identity = _identity(index, facts, present)
    if identity is not None:  # a name settles it: no semantic scoring needed
        t, name = identity
        scored = semantic_score(index, t, facts, words, numbers)
        level = _level(index, t)
        score = 1.0 if level == "fused" else 0.9
        match = TaskMatch(-1, t, "identity", level, score, "high" if level == "fused" else "medium")
        match.name, match.matched_ops, match.shared_numbers = name, scored.matched_ops, scored.shared_numbers
        return match, facts
    called = epilogue_ops(code) | frozenset(performed_reductions(code))
    candidates = [
        semantic_score(index, t, facts, words, numbers)
        for t in _claimable_tasks(index, facts, present, called)
    ]
    claimed = {s.task for s in candidates}  # a task claimed twice is one candidate, not a tie
    for t in _stated_weak_tasks(index, numbers, present, set(facts.dims)):
        if t in claimed:
            continue
        scored = semantic_score(index, t, facts, words, numbers)
        if scored.constants >= VALUE_CLAIM_AGREEMENT:
            candidates.append(scored)
            claimed.add(t)
    formed = set(_weak_form_tasks(index, code, facts))
    candidates += [semantic_score(index, t, facts, words, numbers) for t in formed if t not in claimed]
    candidates = [s for s in candidates if not _does_less_than_its_kernel(index, s.task, code)]
    if heavy := {op for op in facts.ops if op in _HEAVIER}:
        doubtful = set(facts.inferred) | set(facts.incidental)
        candidates = [s for s in candidates if not _a_step_of_heavier_work(index, s.task, heavy, doubtful)]
    if layers := {op for op in facts.ops if op in _NETWORK_LAYERS} - _not_extra_work(facts):
        candidates = [s for s in candidates if not _a_layer_of_a_network(index, s.task, layers)]
    if "Reduce" in code and REDUCE_CALL.search(code):  # an elementwise task reduces nothing
        candidates = [s for s in candidates if not _elementwise(index, s.task)]
    classifier = "classes" in code and _CLASSIFIER.search(code) is not None
    if classifier:
        candidates = [s for s in candidates if s.task in index.of_classes]
    if "Tensor" in code and _LAYER_LIST.search(code):
        candidates = [s for s in candidates if not index.named[s.task] or _LAYERED & index.required[s.task]]
    fits = fitting_tasks(index, facts)
    best = max(candidates, key=lambda s: (s.score, -s.task), default=None)  # ties: the first task
    numbered = _stated_numbers_outweigh(best, candidates)
    runner_up = max((s.score for s in candidates if s is not best), default=0.0)
    fitting = _only_fitting([s for s in candidates if s.score >= STRUCTURE_FLOOR], fits)
    if fitting is None and best is not None and best.score >= threshold:
        # Several candidates fit, but only one of those the words tie with the best: it is placed.
        # Dev, renamed solutions: 5 more placed, 4 right (README).
        fitting = _only_fitting([s for s in candidates if best.score - s.score < RUNNER_UP_MARGIN], fits)
    tied: list[SemanticScore] = []
    basis = "score"
    if numbered is not best:
        best, basis = numbered, "stated numbers"
    elif best is not None and (best.score < threshold or best.score - runner_up < RUNNER_UP_MARGIN):
        if best.score >= max(threshold, TIE_FLOOR) and fitting is None:
            tied = [s for s in candidates if best.score - s.score < RUNNER_UP_MARGIN]
        placed: tuple[SemanticScore | None, str] = (fitting, "structure")  # the one the structure fits
        if fitting is None and not tied and best.score >= SIBLING_FLOOR:
            placed = _one_sibling(index, best, candidates, f"{code}\n{prose}")
        best, basis = placed  # below the threshold, or a tie
    elif best is not None and fitting is not None and best.task not in fits:
        best, basis = fitting, "structure"  # the words chose a task whose structure the row does not repeat
    # A constructor only one task has outweighs words: it places the row where semantics did
    # not, or instead of a task whose structure the row does not repeat. Dev, renamed
    # solutions: 4 more right (two networks; one moved off a wrong sibling), 1 wrong fewer.
    unique = uniquely_fitting(index, facts, present)
    if unique is not None and (best is None or best.task not in fits):
        best, basis = semantic_score(index, unique, facts, words, numbers), "constructor"
    networks = _fitting_networks(index, facts, present, fits)
    if networks and (best is None or best.task not in fits):
        scored_networks = [semantic_score(index, t, facts, words, numbers) for t in networks]
        if len(scored_networks) == 1:
            best, basis, tied = scored_networks[0], "structure", []
        else:
            best, tied = None, scored_networks
    chained = _network_by_chain(index, code, facts, words, numbers)
    if chained is not None and (best is None or best.task != chained.task):
        best, basis, tied = chained, "forward chain", []  # its own forward, call by call
    if best is None and tied:
        tied = _firmly_shown(index, tied, facts)
        kept = settle_tie(index, [s.task for s in tied], f"{code}\n{prose}", _stated_definition(code), words)
        tied = [s for s in tied if s.task in kept]
        best, basis = (tied[0] if len(tied) == 1 or _one_name(index, tied) else None), "tie settled"
    if best is None and (lines := _network_by_lines(index, code, facts, words, numbers)) is not None:
        best, basis, tied = lines, "network lines", []  # its model's own layers: no tie stands
    # A row that names the network it solves (its prose, its comments: "the 19-layer VGG, VGG19")
    # is placed on it where nothing else placed it, or instead of a fused op, a step of it.
    # Renamed rows, placed right / wrong: batches 1-8 284 / 18 -> 295 / 16, batches 9-10 47 / 7 ->
    # 50 / 7, golden 289 / 3 -> 292 / 3; no control file or unit flagged more.
    if best is None or index.named[best.task]:
        text = f"{code} {prose}"
        together = _run_together(_A_NETWORKS_LAYER.sub(" ", text) if "'s" in text or "stem" in text else text)
        if (network := _stated_network(index, together)) is not None:
            best, basis, tied = semantic_score(index, network, facts, words, numbers), "stated network", []
        elif family := _stated_family(index, together, best):
            # a family named ("NetVLAD"): the one network of it the row agrees with, or a tie
            kept = settle_tie(index, family, f"{code}\n{prose}", _stated_definition(code), words)
            named = [semantic_score(index, t, facts, words, numbers) for t in kept]
            best, basis, tied = (named[0], "stated network", []) if len(named) == 1 else (None, basis, named)
    if best is None and not tied:  # what the row does, where its words place nothing
        if classifier:
            best, basis = _network_by_numbers(index, facts, words, numbers, fits), "network numbers"
        if best is None:
            best, basis = _sole_explanation(index, candidates, facts), "one explanation"
        if best is None:
            best, basis = _sole_form(index, candidates, formed, _stated_definition(code), code), "form"
    judged = []
    if index.judge_candidates:
        judged = _judge_candidates(index, facts, words, numbers, best.task if best else -1, fits)
    if best is None and tied:
        return _tied_match(index, tied, judged), facts
    if best is not None:
        match = _scored_match(index, best, "semantics")
        match.alternatives, match.basis = judged, basis
        return match, facts
    if judged:  # no placement: the best candidate, for a judge to confirm or refuse
        judged[0].alternatives = judged[1:]
        return judged[0], facts
    return None, facts


# A candidate whose numbers the row states nearly all of (`constants`, `_value_agreement`) and
# whose ops it shows, close behind a best whose numbers it states none of, is placed instead: a
# tanh-form GELU's 0.044715 and sqrt(2 / pi) are `min_gpt_new_gelu`'s, not the erf `gelu`'s.
NUMBERS_AGREE, NUMBERS_BEHIND = 0.8, 0.1


def _stated_numbers_outweigh(
    best: SemanticScore | None, candidates: list[SemanticScore]
) -> SemanticScore | None:
    """The candidate the row's numbers place instead of the best, or the best."""
    if best is None or best.constants > 0:
        return best
    stated = [
        s
        for s in candidates
        if s.constants >= NUMBERS_AGREE and s.ops >= 0.9 and best.score - s.score < NUMBERS_BEHIND
    ]
    return stated[0] if len(stated) == 1 else best


def _one_name(index: TaskIndex, tied: list[SemanticScore]) -> bool:
    """Whether the tied tasks are one task the benchmark states twice: names alike but for their
    separators (`gemm_scale_batch_norm`, `gemm_scale_batchnorm`: one forward, other sizes), as the
    identity layer reads them. Placed on the first, as a name equal to both is."""
    keys = {op_name_key(index.signatures[s.task].task, keep_version=True) for s in tied}
    return len(keys) == 1


def _firmly_shown(index: TaskIndex, tied: list[SemanticScore], facts: CandidateFacts) -> list[SemanticScore]:
    """The tied tasks whose every required op the row shows by a word, a call or a specific
    shape, when some are: an op only inferred or incidental (a mean read as an average pool)
    completes a task, but a sibling that needs no such op is the better supported."""
    doubtful = _not_extra_work(facts)
    firm = [s for s in tied if not index.required[s.task] & doubtful]
    return firm if firm else tied


NETWORK_AGREEMENT, NETWORK_MARGIN = 0.5, 0.1
NETWORKS_NAMED_AT_MOST = 3


def _fitting_networks(
    index: TaskIndex, facts: CandidateFacts, present: set[str], fits: set[int]
) -> list[int]:
    """The networks (tasks whose name states no op) a row's structure fits, when it fits no other
    task and at most NETWORKS_NAMED_AT_MOST of them, each shown by half its ops at least in its
    rank: the row is a solution of one of them, not of a fused task one of its blocks does
    (`shallow_wide_mlp` had been placed on `gemm_add_relu`; `densenet121` and `densenet201`, the
    two NetVLADs, Mamba's two returns had been left unplaced)."""
    if not fits or len(fits) > NETWORKS_NAMED_AT_MOST or any(index.named[t] for t in fits):
        return []
    dims = set(facts.dims)
    shown = [t for t in sorted(fits) if shows_half_in_rank(index, t, present, dims)]
    return shown if len(shown) == len(fits) else []


# What placed a semantics match (`TaskMatch.basis`), as the report says it.
BASES = {
    "score": "the best score, clear of the others",
    "structure": "the one candidate whose structure the row repeats",
    "constructor": "a constructor only this task has",
    "tie settled": "the tied task that agrees with what the row states",
    "tie": "one of tasks its words tie",
    "sibling lead": "the sibling its words choose, clear of the others of its family",
    "network numbers": "the one network whose numbers the row states",
    "network lines": "the one network whose model-building lines the row repeats",
    "forward chain": "the one network whose forward the row's torch calls repeat, step by step",
    "stated network": "the network the row names (its prose or comments: VGG-19, DenseNet-121)",
    "one explanation": "the one task that explains its hand-written op",
    "form": "the one task the form of its kernel names (a reduction it performs, and nothing else)",
    "stated numbers": "the candidate whose numbers the row states, close behind a best whose numbers it does not",
    "call named": "the one sibling whose reference call takes the mode the row names (nearest, bicubic)",
}


def _network_by_numbers(
    index: TaskIndex, facts: CandidateFacts, words: set[str], numbers: frozenset[float], fits: set[int]
) -> SemanticScore | None:
    """The classifier network whose numbers (layer widths, kernel sizes, strides) a classifier
    row states, when it agrees at least NETWORK_AGREEMENT with the row and no other network
    comes within NETWORK_MARGIN of it: a network's name states no op, and its ops are every
    network's. Dev and held-out-a, renamed: 2 more right (MobileNet-V2, LeNet-5), none wrong
    (margins 0.09 to 0.14 give the same); naming every network within the margin instead named
    2 wrong ones (ResNet-18, DenseNet-121). As for a constructor only one task has
    (`uniquely_fitting`), the row shows half of the network's ops at least, in its rank; and a
    row whose model states a constructor must repeat the network's."""
    present, dims = set(facts.ops), set(facts.dims)
    networks = [
        t
        for t in index.classifiers
        if shows_half_in_rank(index, t, present, dims) and (not facts.constructors or t in fits)
    ]
    scored = sorted(
        (semantic_score(index, t, facts, words, numbers) for t in networks),
        key=lambda s: (-s.constants, s.task),
    )
    if not scored or scored[0].constants < NETWORK_AGREEMENT:
        return None
    if len(scored) > 1 and scored[0].constants - scored[1].constants < NETWORK_MARGIN:
        return None
    return scored[0]


# Dev controls: no row has a network's lines. Fresh renamed rows (this session's batch 1): 2
# networks more placed, none wrong; held-out 1 more; the same from 0.3 to 0.5.
LINES_AGREEMENT, LINES_MARGIN = 0.5, 0.2


def _network_by_lines(
    index: TaskIndex, code: str, facts: CandidateFacts, words: set[str], numbers: frozenset[float]
) -> SemanticScore | None:
    """The network whose model-building lines a row repeats (its `ModelNew`: the layers it
    builds, with their arguments), weighted by how few tasks' references have each line: at
    least LINES_AGREEMENT of the network's weight, LINES_MARGIN ahead of the next network, and
    half the network's ops shown in its rank."""
    if not index.network_lines or "(" not in code:
        return None
    weight: dict[int, float] = {}
    for line in line_keys(code) & index.network_lines.keys():
        for t in index.network_lines[line]:
            weight[t] = weight.get(t, 0.0) + index.line_weight[line]
    shares = sorted(
        ((w / index.network_line_total[t], t) for t, w in weight.items() if index.network_line_total[t]),
        reverse=True,
    )
    if not shares or shares[0][0] < LINES_AGREEMENT:
        return None
    if len(shares) > 1 and shares[0][0] - shares[1][0] < LINES_MARGIN:
        return None
    t = shares[0][1]
    if not shows_half_in_rank(index, t, set(facts.ops), set(facts.dims)):
        return None
    return semantic_score(index, t, facts, words, numbers)


# A binding that runs a network's forward as a chain of torch calls (`at::conv2d`, `at::relu`,
# `at::max_pool2d`, ...) repeats its reference's ops in order, layer by layer: placed on the
# network whose op sequence it shares the most of (the Dice of their longest common subsequence),
# at least CHAIN_AGREEMENT and CHAIN_MARGIN ahead of any other task, when the chain has at least
# CHAIN_MIN_CALLS ops. A fused task's few steps share a short part of it: an AlexNet's
# convolutions, relus and pools had placed it on `conv2d_relu_bias_add` (fresh rows).
CHAIN_MIN_CALLS, CHAIN_AGREEMENT, CHAIN_MARGIN = 6, 0.6, 0.15
_TORCH_CALL = re.compile(r"\b(?:at|torch|F|functional)(?:::|\.)(\w{1,40})\s{0,8}\(")
_PARENTHESIS = re.compile(r"[()]")


def torch_call_chain(code: str) -> list[str]:
    """The ops of a row's torch calls in the order they run: by where each call's arguments close
    (`at::relu(at::conv2d(x, w))` is a conv, then a relu)."""
    if "at::" not in code and "torch" not in code and "F." not in code:
        return []
    calls = [(call.end() - 1, torch_ops(call.group(1).lower())) for call in _TORCH_CALL.finditer(code)]
    calls = [(opening, ops) for opening, ops in calls if ops]
    if not calls:
        return []
    closing = _closing_parentheses(code)
    ordered = sorted(calls, key=lambda call: closing.get(call[0], len(code)))
    return [op for _, ops in ordered for op in ops]


def _closing_parentheses(code: str) -> dict[int, int]:
    """Where each opening parenthesis closes, in one pass (an unclosed one is left out)."""
    closing: dict[int, int] = {}
    open_at: list[int] = []
    for paren in _PARENTHESIS.finditer(code):
        if paren.group() == "(":
            open_at.append(paren.start())
        elif open_at:
            closing[open_at.pop()] = paren.start()
    return closing


def _common_steps(a: Sequence[str], b: Sequence[str]) -> int:
    """The length of the longest common subsequence of two op sequences."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def _network_by_chain(
    index: TaskIndex, code: str, facts: CandidateFacts, words: set[str], numbers: frozenset[float]
) -> SemanticScore | None:
    chain = torch_call_chain(code)
    if len(chain) < CHAIN_MIN_CALLS:
        return None
    counts = Counter(chain)
    best: dict[int, float] = {}  # task -> its best share, of its forward or of one of its blocks
    for t, sig in enumerate(index.signatures):
        # A network's blocks are its steps too: a row that runs one block in a loop repeats
        # `squeeze_net`'s fire module as much as `squeeze_net_fire_module`'s forward.
        for steps in (sig.ops, *sig.blocks):
            size = len(chain) + len(steps)
            # The ops both have, counted, bound the common subsequence: most tasks end here, and a
            # hostile row's thousands of calls end every task here (the share cannot reach the floor).
            bound = sum(min(n, counts[op]) for op, n in Counter(steps).items())
            if len(steps) >= 3 and 2 * bound / size >= CHAIN_AGREEMENT - CHAIN_MARGIN:
                best[t] = max(best.get(t, 0.0), 2 * _common_steps(chain, steps) / size)
    shares = sorted(((share, t) for t, share in best.items()), reverse=True)
    if not shares or shares[0][0] < CHAIN_AGREEMENT or index.named[shares[0][1]]:
        return None
    if len(shares) > 1 and shares[0][0] - shares[1][0] < CHAIN_MARGIN:
        return None
    return semantic_score(index, shares[0][1], facts, words, numbers)


def repeated_model_lines(sig: TaskSignature, code: str) -> list[str]:
    """The lines of the task's reference outside `forward` (`TaskSignature.model_lines`: its model's
    layers, its settings) the document repeats."""
    if not sig.model_lines:
        return []
    keys = line_keys(code)
    return [line for line in sig.model_lines if line in keys]


# A sanity floor for `_sole_explanation` (dev: the same placements from 0 to 0.35).
SOLE_FLOOR = 0.3


def _does_no_more_than_required(index: TaskIndex, t: int, required: frozenset[str]) -> bool:
    """Whether the task's forward does no strong op beyond those it requires and their helpers
    (`efficientnet_mb_conv` requires a conv, and batch-norms and activates besides)."""
    forward = {op for op in index.signatures[t].forward_ops if strength(op) == STRONG}
    return forward <= required | implied_ops(required)


def _sole_explanation(
    index: TaskIndex, candidates: list[SemanticScore], facts: CandidateFacts
) -> SemanticScore | None:
    """The one single-op candidate that explains every strong op the row shows (its op and the
    ops it is carried out with), when its op is shown by a code shape (`dedup.idioms`: a clamp
    to [-1, 1] by `Maxs` and `Mins`) and no other candidate explains them: a kernel that does
    that op and nothing else, whose renamed text no longer says the task's words. Dev, renamed:
    3 more right (hardtanh, swish, a subtraction), none wrong; an op shown by a word instead
    flagged 18 more ops-sparse files (`where`, `product` in test helpers)."""
    inferred = _not_extra_work(facts)
    shown = {op for op in facts.ops if strength(op) == STRONG and op not in inferred}
    # The row's device functions name its steps (`TanhOut`, `SigmoidInplace` of a GRU): not read
    # as ops (helper names of shared headers flag libraries), but an op they name counts here.
    shown |= {
        op for name in facts.function_names for op, _ in _identifier_ops(name) if strength(op) == STRONG
    }
    explaining = []
    for scored in candidates:
        required = index.required[scored.task]
        if (
            not is_fused(sorted(required))
            and _does_no_more_than_required(index, scored.task, required)  # a block of layers is not one op
            and required <= set(facts.handwritten)
            and shown <= _done_by(index, scored.task)
        ):
            explaining.append(scored)
    return explaining[0] if len(explaining) == 1 and explaining[0].score >= SOLE_FLOOR else None


def _sole_form(
    index: TaskIndex, candidates: list[SemanticScore], formed: set[int], stated: CandidateFacts, code: str
) -> SemanticScore | None:
    """The one task a kernel's form claims (`_weak_form_tasks`: a reduction it performs and
    nothing else), when no other candidate scores within RUNNER_UP_MARGIN of it and it scores
    STRUCTURE_FLOOR at least: renamed, a reduction kernel's words no longer reach the threshold,
    the form it performs still names the task. Of several such tasks, an op definition of one
    tensor input (and a scalar attribute: `Muls`) places the one task of one tensor input
    (`matrix_scalar_multiplication`, not `elmentwise_mul_broadcast`) from SOLE_FLOOR: fresh
    rows, renamed, 3 more right. Two tensors multiplied are as often a gate or a diagonal
    matmul (golden: 1 more wrong): those are left as they were. Before that, a form whose inputs
    are not of the ranks the row checks (`x.dim() == 4`: a bias added to planes of channels, not
    to a matrix) does not compete (`dedup.ties.of_the_ranks_checked`; fresh rows +1 right)."""
    options = [s for s in candidates if s.task in formed]
    rivals, floor = candidates, STRUCTURE_FLOOR
    if len(options) > 1:  # a form whose inputs are not of the ranks the row checks does not compete
        kept = of_the_ranks_checked(index, [s.task for s in options], code)
        rivals = [s for s in candidates if s.task in kept or s.task not in formed]
        options = [s for s in options if s.task in kept]
    if len(options) > 1 and len(stated.inputs) == 1:  # only the forms of one tensor input compete
        options = rivals = [s for s in options if len(index.signatures[s.task].input_shapes) == 1]
        floor = SOLE_FLOOR
    if len(options) != 1 or options[0].score < floor:
        return None
    sole = options[0]
    return None if any(s is not sole and sole.score - s.score < RUNNER_UP_MARGIN for s in rivals) else sole


def _one_sibling(
    index: TaskIndex, best: SemanticScore, candidates: list[SemanticScore], text: str
) -> tuple[SemanticScore | None, str]:
    """Below the threshold: the one of tied siblings the row's structure agrees with, or the
    sibling its words chose clearly (`best`, the best candidate); (None, "score") otherwise."""
    near = [s for s in candidates if best.score - s.score < RUNNER_UP_MARGIN]
    if (apart := _sibling_apart(index, near, text)) is not None:
        return apart, "tie settled"
    if (clear := _clear_of_its_siblings(index, best, candidates)) is not None:
        return clear, "sibling lead"
    if (named := _sibling_call_named(index, best, candidates, text)) is not None:
        return named, "call named"
    return None, "score"


def _sibling_call_named(
    index: TaskIndex, best: SemanticScore, candidates: list[SemanticScore], text: str
) -> SemanticScore | None:
    """The one of the best candidate's siblings (itself included) whose call the row names the
    mode of (`dedup.ties.call_named_apart`), scoring SIBLING_FLOOR at least."""
    siblings = [s for s in candidates if _strong_siblings(index, [best, s])]
    if len(siblings) < 2:
        return None
    words = set(_WORDS.findall(text.lower().replace("_", " ")))
    named = call_named_apart(index, [s.task for s in siblings], words)
    return next((s for s in siblings if s.task == named and s.score >= SIBLING_FLOOR), None)


_WORDS = re.compile(r"[a-z]{3,32}")


def _clear_of_its_siblings(
    index: TaskIndex, best: SemanticScore, candidates: list[SemanticScore]
) -> SemanticScore | None:
    """`best`, when the next candidate is a sibling (the same strong ops required: the upsamples'
    `interpolate`) that it leads by SIBLING_LEAD: the row's words chose one of a family clearly."""
    second = max((s for s in candidates if s is not best), key=lambda s: s.score, default=None)
    if second is None or not _strong_siblings(index, [best, second]):
        return None
    return best if best.score - second.score >= SIBLING_LEAD else None


def _sibling_apart(index: TaskIndex, near: list[SemanticScore], code: str) -> SemanticScore | None:
    """Of candidates that tie (`near`) and require the same strong ops, the one task whose
    structure the row states (`dedup.ties.structurally_apart`), or None."""
    if len(near) < 2 or not _strong_siblings(index, near):
        return None
    kept = structurally_apart(index, [s.task for s in near], code, _stated_definition(code))
    return next(s for s in near if s.task in kept) if len(kept) == 1 else None


def _strong_siblings(index: TaskIndex, scored: list[SemanticScore]) -> bool:
    """Whether the tasks require the same ops, strong ones only (siblings of one computation);
    an index copy or add requires the scatter it is done as, an index select the gather."""
    required = _done_as(index.required[scored[0].task])
    return (
        bool(required)
        and all(strength(op) == STRONG for op in required)
        and all(_done_as(index.required[s.task]) == required for s in scored)
    )


def _done_as(required: frozenset[str]) -> frozenset[str]:
    return frozenset(_INDEX_DONE_AS.get(op, op) for op in required)


def _tied_match(index: TaskIndex, tied: list[SemanticScore], judged: list[TaskMatch]) -> TaskMatch:
    """A document that solves one of several tasks its words tie (within RUNNER_UP_MARGIN, above
    the threshold) and its structure does not separate: a leak all the same, placed on the first
    with the others named (`TaskMatch.tied`), confidence low. A judge, when asked, settles it."""
    first, *others = sorted(tied, key=lambda s: (-s.score, s.task))
    match = _scored_match(index, first, "semantics")
    match.confidence, match.tied, match.basis = "low", [s.task for s in others], "tie"
    match.alternatives = [option for option in judged if option.item != first.task]
    return match


def _only_fitting(options: list[SemanticScore], fits: set[int]) -> SemanticScore | None:
    """The one option whose structure the row repeats (siblings differ in words a renamed row no
    longer says, and in the constructor and shapes it still states); None otherwise."""
    fitting = {s.task: s for s in options if s.task in fits}
    return next(iter(fitting.values())) if len(fitting) == 1 else None


def _claimable_tasks(
    index: TaskIndex, facts: CandidateFacts, present: set[str], called: frozenset[str] = frozenset()
) -> Iterator[int]:
    """Tasks semantics may place the document on. The fused-task rule: every required op shown,
    with enough strong ones among them (a task of weak ops only, `sum_reduction`, is left to
    identity and to its stated numbers); a network is placed by its name only."""
    dims = set(facts.dims)
    for required, tasks in index.groups.items():
        if required <= present and (
            semantically_claimable(required, facts.inferred, facts.incidental)
            or _weak_steps_called(required, called)
        ):
            yield from (t for t in tasks if index.named[t] and same_rank(index, t, dims))


def _weak_steps_called(required: frozenset[str], called: frozenset[str]) -> bool:
    """A fused task of one heavy op and weak steps (`conv2d_scaling_min`: a conv, then a min)
    whose every weak step the row's AscendC vector calls do (`Mins`, `ReduceMin` after the conv),
    and nothing else but arithmetic: the calls are the second strong piece of evidence a word
    alone is not. (A header of vector wrappers calls everything: ops-fft's SIMD helpers.)"""
    heavy = required & _HEAVY
    steps = required - heavy
    # A clamp is a `Maxs` (its lower bound), a `Mins` (its upper) or both.
    bounds = {"max", "min"} if "clamp" in steps else set()
    done = called | ({"clamp"} if called & bounds else set())
    return (
        len(distinct_ops(heavy)) == 1
        and is_fused(sorted(required))
        and bool(steps)
        and steps <= done
        and not called - steps - bounds - ARITHMETIC.ops
    )


def _weak_form_tasks(index: TaskIndex, code: str, facts: CandidateFacts) -> list[int]:
    """Single-op tasks of a weak op (claimed by no word) that a row does in the form the task
    names (a reduction, a broadcast) and that is all it does (`dedup.weak_tasks`). The report
    shows the form that claims, not the bare word."""
    if not index.weak_forms:
        return []
    claimed, dims = [], set(facts.dims)
    for form, shown in performed_forms(code, facts.ops).items():
        tasks = index.weak_forms.get(form, {})
        others = [op for op in facts.ops if op not in form.companions and op not in facts.incidental]
        if form is ARITHMETIC:
            # Arithmetic is known by its calls, and so is other work beside it: a strong op, or
            # a weak one the row's vector calls do ("clip the last core's length" says `clamp`
            # and does none; fresh rows: 1 more right, controls the same). A broadcast or a
            # reduction is known by words too: a hand-written sum beside it is other work.
            others = [op for op in others if strength(op) == STRONG or op in epilogue_ops(code)]
        if form is REDUCTION and _TENSOR_PRODUCT.search(code):
            others.append("mul")  # products of two tensors, then summed: a dot product (SpMV)
        if form is REDUCTION and "tride" in code and _WINDOW.search(code):
            others.append("pool")  # a window moved by a stride, reduced: a pooling, not a dimension
        if not tasks or others:
            continue
        for op, evidence in shown.items():
            found = [t for t in tasks.get(op, ()) if same_rank(index, t, dims)]
            if found:
                facts.ops[op] = evidence
                claimed += found
    return claimed


def _may_match(code: str, index: TaskIndex, extra_names: Sequence[str]) -> bool:
    """A cheap, exact pre-test: semantics needs a strong op word somewhere in the text (any case
    and separator), a weak op's form (`dedup.weak_tasks`) or one arithmetic op beside a word of
    the arithmetic tasks (`TaskIndex.arithmetic_words`), identity a name equal to a task's.
    Most rows of a large corpus fail all four and
    skip the word scan. Each test is one regex search over a trie of its words (C speed; the
    Python loop over 112 stems it replaced was 28% of task matching on 40k synthetic rows)."""
    squashed = code.lower().replace("_", "").replace(" ", "")
    if _strong_screen().search(squashed):
        return True
    if index.weak_forms and may_show_a_form(code):
        return True
    if "Maxs" in code and "Mins" in code:  # a clamp in AscendC's calls: a hard sigmoid or tanh (dedup.idioms)
        return True
    if may_show_unworded(code):  # an Adam step, a norm's moments (dedup.idioms)
        return True
    if index.arithmetic_words is not None and index.arithmetic_words.search(squashed) and arithmetic_op(code):
        return True
    names = [n for mark, pattern in _NAME_PATTERNS if mark in code for n in pattern.findall(code)]
    names += [n for n in extra_names if n]
    if not names or not index.names:
        return False
    if index.name_screen is None:
        index.name_screen = substring_screen(index.names)
    # A name's key is a run of its ASCII letters and digits, lower-cased (dedup.names): a name
    # holding no task key as such a run cannot have one as its key.
    screen = index.name_screen.search
    return any(_name_key(n) in index.names for n in names if screen(_ALNUM_RUNS.sub("", n).lower()))


_ALNUM_RUNS = re.compile(r"[^A-Za-z\d]+")  # what dedup.names drops from a key


def substring_screen(words: Iterable[str]) -> re.Pattern[str]:
    """A regex that finds any of `words` in a text: the words as a trie (`relu|round` ->
    `r(?:elu|ound)`), which Python's engine tries once per position, not once per word."""
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def alternation(node: dict[str, dict]) -> str:
        branches = [re.escape(ch) + alternation(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{body})?" if "" in node else body  # a word ends here; longer ones go on

    return re.compile(alternation(trie) or "(?!)")


@functools.cache
def _strong_screen() -> re.Pattern[str]:
    return substring_screen(_STRONG_STEMS)


def _identity(index: TaskIndex, facts: CandidateFacts, present: set[str]) -> tuple[int, str] | None:
    """A task whose name one of the document's names equals. The name states every step of a
    fused task; the code beside the name must show at least half of them (an empty stub named
    after a fused task, or a single op renamed, does not claim it); a network's name, one of
    its ops. A device function named
    after a single-op task (`__aicore__ void Gelu(`) claims it only when the document does
    nothing more: inside a fused kernel it names one step. So does a library op the binding
    launches (`aclnnGroupNorm` after a custom conv). In a collective communication library a
    `scatter_op` is its collective (hicann/hccl, an unseen control: 2 of 981 files flagged -> 0)."""
    collective = "collective" in present
    for name in facts.names:
        for t in _tasks_named(index, name):
            required = index.required[t]
            if collective and required <= COLLECTIVE_STEPS:
                continue
            if is_fused(sorted(required)):
                # A name that states the steps must be backed by half of them; one that states
                # none (`resnet18`, `mamba_return_final_state`) by one: the name is all it says.
                shown = len(required & present)
                if (2 * shown >= len(required)) if index.named[t] else shown >= 1:
                    return t, name
            elif name not in facts.function_names or not _does_more_than(
                index, t, present, _not_extra_work(facts)
            ):
                return t, name
    return None


def _tasks_named(index: TaskIndex, name: str) -> list[int]:
    """The tasks a name is the name of: by its version first (`MobilenetV1Custom` is
    `mobilenet_v1`, not `mobilenet_v2`), else as op names are matched (`MatMulV2` is `matmul`)."""
    return index.versioned_names.get(_name_key(name, keep_version=True)) or index.names.get(
        _name_key(name), []
    )


def _not_extra_work(facts: CandidateFacts) -> set[str]:
    """Ops recognised from other ops or from a code shape that serves other ends: evidence for a
    task, never work beyond it."""
    return set(facts.inferred) | set(facts.incidental)


# AscendC's elementwise product of two tensors (`Mul`, or accumulated: `MulAddDst`, `FusedMulAdd`;
# a scale is `Muls`)
_TENSOR_PRODUCT = re.compile(r"\b(?:Mul|MulAddDst|FusedMulAdd)" + CALL_OPENING)
_HEAVY = frozenset({"conv", "conv_transpose", "matmul"})
# A reduction over a window (`window_mean_2d`, "a sliding maximum over K samples") that a stride
# moves is a pooling's (batch 25, read: two poolings had been placed on reduction tasks).
_WINDOW = re.compile(r"(?i)window|sliding")
# A row that calls one of AscendC's reductions reduces (a loss's mean of a hinge), which no
# elementwise task (`relu`, `hardtanh`) does (fresh held-out rows, read: 1 wrong placement fewer).
_ELEMENTWISE = ACTIVATIONS | ARITHMETIC.ops


def _elementwise(index: TaskIndex, t: int) -> bool:
    return (set(index.signatures[t].ops) | index.required[t]) <= _ELEMENTWISE


_ACCUMULATION = frozenset({"add", "mul"})  # a bias added, a product summed


def _does_less_than_its_kernel(index: TaskIndex, t: int, code: str) -> bool:
    """A plain convolution or matmul task (`conv_standard_2d_...`, `matmul_with_transposed_a`)
    and a row whose AscendC vector calls do steps its reference does not (`Mins` and `Div` after
    a convolution the binding runs): the row solves some fused task, not this one. Only calls
    count: "min" and "max" are words of every tiling."""
    required, task_ops = index.required[t], set(index.signatures[t].ops)
    if not required or not (required | task_ops) - _ACCUMULATION <= _HEAVY:
        return False  # `efficientnet_mb_conv` is named after its convolution, and does more
    return bool(epilogue_ops(code) - task_ops - implied_ops(task_ops))


_HEAVIER = _HEAVY | _LAYERED | {"attention"}


def _a_step_of_heavier_work(index: TaskIndex, t: int, heavy: set[str], doubtful: set[str]) -> bool:
    """A single-op task (`max_pooling_2d`) and a row that also shows heavy work (`heavy`, less
    the ops it only infers or shows incidentally, `doubtful`) the task neither does nor is
    carried out with (a convolution its binding runs with `at::conv2d`): its kernel is one step
    of a block or a network, not a solution of the single op."""
    return not is_fused(sorted(index.required[t])) and _does_more_than(index, t, heavy, doubtful)


# A network's layers: a row that shows them builds blocks of a network (a ResNet's conv, batch
# norm and relu; a VGG stage's conv, relu and max pool), whichever fused task its words recall.
_NETWORK_LAYERS = frozenset({"batch_norm", "max_pool"})


def _a_layer_of_a_network(index: TaskIndex, t: int, layers: set[str]) -> bool:
    """Whether `t` is a fused task named after its ops that lacks layers the row shows (`layers`,
    shown by no inference): `conv2d_relu_bias_add` is no task of a row that also batch-normalises.
    Fresh rows renamed: 1 wrong fewer, 2 more flagged as ties; golden and controls unchanged."""
    return index.named[t] and is_fused(sorted(index.required[t])) and bool(layers - _done_by(index, t))


def _done_by(index: TaskIndex, t: int) -> set[str]:
    """The ops task `t` does (its reference's and its name's) and those they are carried out with."""
    task_ops = set(index.signatures[t].ops) | index.required[t]
    return task_ops | implied_ops(task_ops)


def _does_more_than(index: TaskIndex, t: int, present: set[str], inferred: set[str]) -> bool:
    """Whether a document shows strong ops a single-op task neither is nor is carried out with:
    a fused kernel's helper named `Gelu` or `GroupNorm` names one step, not the task it solves."""
    allowed = _done_by(index, t)
    return any(strength(op) == STRONG and op not in allowed for op in present - inferred)


def unit_prose(unit: KernelUnit) -> str:
    """The text a unit states its task in: a table row's text, carried beside its code
    (`curate.sources`), or its operator's own documentation (README, docs/*.md: "y = x / mean(|x|,
    axis=1)"), "" when it has none. Read only for words and numbers: every op a task requires must
    still be in the code. Fresh op trees (oplib) read as units, renamed: 129 / 29 -> 137 / 25
    right / wrong (README)."""
    doc = unit.doc
    return doc.raw if doc is not None else ""


def unit_document(unit: KernelUnit) -> str:
    """The text a unit is matched on: its entry file, the headers of its own operator directory
    (or of the entry's folder), then its host code; each part cut at `UNIT_SCAN_CHARS`."""
    files = split_unit_code(unit.code, unit.path)
    if len(files) == 1:  # a text row or a one-file unit (most of a large audit): no folder to find
        own = [files[0][1]]
    else:
        home = operator_dir_of(unit.path)
        if home is None:
            home = unit.path.rpartition("/")[0]
        prefix = f"{home}/" if home else ""
        own = [text for i, (path, text) in enumerate(files) if i == 0 or path.startswith(prefix)]
    kernel = "\n".join(own)[:UNIT_SCAN_CHARS]
    return f"{kernel}\n{unit.host_code[:UNIT_SCAN_CHARS]}" if unit.host_code else kernel


def match_units(units: Sequence[KernelUnit], index: TaskIndex) -> list[TaskMatch]:
    """Task matches of some training units (unit = position in `units`); the op and kernel
    names a unit was read with count as names it gives itself, and a table row's instruction
    as what it states. The files of one operator folder read from a directory are one document
    (`operator_documents`), its match reported on its first kernel file."""
    found = []
    for u, document, names, prose in operator_documents(units):
        match, _ = match_document(document, index, names, prose=prose)
        if match is not None:
            for placed in (match, *match.alternatives):
                placed.unit = u
                placed.item = index.signatures[placed.item].item  # task position -> benchmark item
            match.tied = [index.signatures[t].item for t in match.tied]
            found.append(match)
    return found


def operator_documents(units: Sequence[KernelUnit]) -> list[tuple[int, str, tuple[str, ...], str]]:
    """(unit reported on, document, names, prose) per document to match. A directory's code
    files (units without a kernel name or host code, `curate.sources.file_unit`) that lie in one
    operator folder (`op_kernel/`, `op_host/`, `CppExtension/`: MultiKernelBench's and
    EvoKernel's op trees), or in one sample folder (a kernel file beside the `main.cpp` that
    launches it), are one candidate, as a submission's fields are: its kernel files, then the
    rest. Read one file at a time, a kernel lost its binding's `at::` calls and a binding its
    kernel (EvoKernel's 162 trees with neutral names: 108 with a file placed right, 20 with one
    placed wrong, against 120 right and 0 wrong read as one)."""

    def alone(u: int) -> tuple[int, str, tuple[str, ...], str]:
        unit = units[u]
        return u, unit_document(unit), (unit.op_name, unit.kernel_name), unit_prose(unit)

    documents: list[tuple[int, str, tuple[str, ...], str]] = []
    folders: dict[str, list[int]] = {}
    loose: dict[str, list[int]] = {}
    for u, unit in enumerate(units):
        if not unit.code.strip():
            continue
        if unit.kernel_name or unit.host_code:  # an ingested unit is whole already
            documents.append(alone(u))
        elif (home := operator_folder_of(unit.path)) is not None:
            folders.setdefault(home, []).append(u)
        else:
            loose.setdefault(PurePosixPath(unit.path).parent.as_posix(), []).append(u)
    for folder, members in loose.items():
        files = {PurePosixPath(units[u].path).name for u in members}
        if files & set(HOST_MAIN_NAMES) and any("__global__" in units[u].code for u in members):
            folders[folder] = members
        else:
            documents += [alone(u) for u in members]
    for members in folders.values():
        kernels = [u for u in members if "__global__" in units[u].code] or members[:1]
        rest = [u for u in members if u not in kernels]
        kernel, host = _joined(units[u].code for u in kernels), _joined(units[u].code for u in rest)
        names = tuple(dict.fromkeys(units[u].op_name for u in members))
        prose = next((text for u in members if (text := unit_prose(units[u]))), "")  # the folder's README
        documents.append((kernels[0], f"{kernel}\n{host}" if host else kernel, names, prose))
    return documents


def _joined(texts: Iterable[str]) -> str:
    """Texts joined by newlines up to `UNIT_SCAN_CHARS`, reading no more of them than that (a
    hostile folder of ten thousand large files is not joined whole)."""
    parts, size = [], 0
    for text in texts:
        parts.append(text[: UNIT_SCAN_CHARS - size])
        size += len(parts[-1]) + 1
        if size >= UNIT_SCAN_CHARS:
            break
    return "\n".join(parts)[:UNIT_SCAN_CHARS]
