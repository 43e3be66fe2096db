"""Breaking a tie between sibling tasks with what the row states beside its words.

Siblings (`matmul_with_transposed_a` / `_b`, `lstm_hn` / `lstm_cn`, a square or an asymmetric
kernel) compute the same thing on other inputs or return another result. A renamed row's words
tie them (`dedup.tasks.RUNNER_UP_MARGIN`); what its op definition and host code state may not:
its number of tensor inputs, the matmul operands it transposes, the input or kernel it refuses
unless square, the recurrent state its output is named after, the input shape it writes out,
the order it names the ops of siblings that do them in another order, a telling parameter of
one constructor, and a telling word of one name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from dedup.idioms import INDEX_INPUT
from schemas.taskops import (
    NAME_STOP_WORDS,
    module_constructors,
    name_ops,
    ops_of_words,
    split_identifier,
    task_name_words,
)
from schemas.tasks import CandidateFacts, TaskSignature

if TYPE_CHECKING:
    from dedup.tasks import TaskIndex

# The AscendC matmul API's transpose arguments: the tiling's `SetAType(pos, format, dtype, true)`
# and the kernel's `SetTensorB(gm, true)`; the last argument says whether the operand is transposed.
_OPERAND_SETTING = re.compile(r"\bSet(?:Tensor)?([AB])(?:Type)?\s*\(([^;(){}]{0,300})\)")
# A height compared with the width of the same thing, refused when they differ
# (`kernelHeight != kernelWidth`, `kh != kw`, `in_h != in_w`): group 1 names the thing.
_SQUARE_CHECK = re.compile(
    r"\b(?=\w{1,64}\b)(\w{0,40}?)(?:Height|height|H|h)(\w{0,12})\s*!=\s*\1(?:Width|width|W|w)\2\b"
)
_KERNEL_NAMES = frozenset({"k", "ks", "ker", "kernel", "kernelsize", "w_k", "weight"})
_INPUT_NAMES = frozenset({"i", "in", "inp", "input", "x", "src"})


def settle_tie(
    index: TaskIndex, tied: list[int], code: str, stated: CandidateFacts, words: set[str]
) -> list[int]:
    """The tied tasks that agree with what the row states (`stated`: its op definition), when
    some do and others do not: its number of tensor inputs (`masked_cumsum` takes a mask,
    `cumsum` not), the matmul operands it transposes (`matmul_with_transposed_a` / `_b`), the
    input or kernel it refuses unless square (`..._square_kernel` / `_asymmetric_kernel`), the
    recurrent state its output is named after or its binding returns (`lstm_hn` / `lstm_cn`;
    fresh rows: 2 more right), the switches it states
    against those the reference builds its modules with (`bidirectional=False`); then a word
    only some tied names have (`named_apart`). Dev, renamed: 8 more right (inputs 2, transposes
    3, a square kernel 1, states 2), none wrong; the square checks also narrow 3 conv ties; the
    switches 1 more (dev and held-out-a, README); then a constructor parameter only some tied
    tasks take that the row names (`parameters_apart`). Session 15 added two facts after the
    switches: the input shape the row writes out (`states_shape`; golden renamed 292 / 3 ->
    297 / 3, batches 1-14 +9 right, 1 wrong fewer, no control moved) and, for siblings whose
    names state the same ops in another order, the order the row first names them in
    (`in_the_order_named`; golden 297 / 3 -> 299 / 3, batches 1-14 +5 right, +1 wrong).
    Session 17 added a kernel of one extent (`cfg.k * cfg.k`, `[Cout, Cin, K, K]`): fresh rows
    renamed +2 right, +1 wrong (a tie of two wrong tasks narrowed to one), conv ties narrowed.
    Session 16 added: the sizes a binding's checks pin equal (`pinned_equal`), the kinds a
    constructor declares its parameters with (`declared_kinds`), an operand a binding transposes,
    the switches a reference's calls are made with (`align_corners`), and last, of siblings, the
    plain one where the row says none of the others' qualifiers (`plain_apart`). Golden renamed
    299 / 3 -> 308 / 3 with the session's other steps (README)."""
    switches = stated_switches(code)
    tied = structurally_apart(index, tied, code, stated)
    said = words - switched_off(switches)
    return plain_apart(index, named_apart(index, parameters_apart(index, tied, code), said), said)


def structurally_apart(index: TaskIndex, tied: list[int], code: str, stated: CandidateFacts) -> list[int]:
    """The tied tasks that agree with what the row states of its structure (`settle_tie`'s
    facts but words), all of them where none or all do."""
    inputs = len(stated.inputs)
    transposed = transposed_operands(code)
    square = square_only(code)
    state = _returned_state(stated.outputs) or returned_by_binding(code)
    switches = {parameter_key(name): on for name, on in stated_switches(code).items()}
    kinds = declared_kinds(module_constructors(code).values())
    pinned = pinned_equal(code)
    one_extent = one_kernel_extent(code)
    accumulates = adds_through_an_index(code)
    rank = index_rank(code)
    # siblings that do the same ops in another order (`conv2d_hard_swish_relu` / `_relu_hard_swish`)
    orders = {tuple(name_ops(index.signatures[t].task)) for t in tied}
    permuted = len(orders) > 1 and len({frozenset(order) for order in orders}) == 1
    named = ops_in_order(code) if permuted else {}
    agreements: list[Callable[[TaskSignature], bool]] = [
        lambda sig: inputs > 0 and len(sig.input_shapes) == inputs,
        lambda sig: transposed is not None and set(sig.transposed) == transposed,
        lambda sig: "input" in square and _square(sig.input_dims[:1]),
        lambda sig: "kernel" in square and _square(sig.weight_dims[:1]),
        lambda sig: one_extent and _square(sig.weight_dims[:1]),
        lambda sig: "input" in pinned and _equal_at(sig.input_dims[:1], pinned["input"]),
        lambda sig: "kernel" in pinned and _equal_at(sig.weight_dims[:1], pinned["kernel"]),
        lambda sig: (
            bool(kinds) and all(kinds.get(n, k) == k for n, k in declared_kinds([sig.constructor]).items())
        ),
        lambda sig: bool(state) and sig.returns == state,
        lambda sig: (
            any(switches.get(parameter_key(name)) == on for name, on in sig.switches.items())
            and all(switches.get(parameter_key(name), on) == on for name, on in sig.switches.items())
        ),
        lambda sig: bool(sig.input_dims) and states_shape(code, sig.input_dims[0]),
        lambda sig: permuted and in_the_order_named(name_ops(sig.task), named),
        lambda sig: accumulates is not None and _task_adds_through_its_index(sig) == accumulates,
        lambda sig: rank is not None and any(len(shape) == 1 for shape in sig.input_shapes) == (rank == 1),
    ]
    for agrees in agreements:
        kept = [t for t in tied if agrees(index.signatures[t])]
        tied = kept or tied
    return tied


# A value added where an index points, not stored there (`index_add`, `scatter_add` against
# `index_copy`, `scatter`): an atomic add into the output, `y[idx[i]] += v`, a read-modify-write
# of one element, or AscendC's vector `Add` into a row it fetched.
_ADDED_THROUGH_AN_INDEX = re.compile(
    r"\bSetAtomicAdd\b|\bAtomicAdd\b|\]\s{0,4}\+=|\.SetValue\([^;]{1,80}\.GetValue\([^;]{1,80}\)\s{0,4}\+|\bAdd\s{0,4}\("
)
_INDEX_WRITES = frozenset({"scatter", "index_add", "index_copy"})


def adds_through_an_index(code: str) -> bool | None:
    """Whether a row that writes through an index adds there (None: it shows no index input)."""
    if INDEX_INPUT.search(code) is None:
        return None
    return _ADDED_THROUGH_AN_INDEX.search(code) is not None


# The rank a row checks its index tensor has, or the second extent it reads of it
# (`indices.dim() == 1`, `index.size(1)`): an index copy's indices are a list of rows, a
# scatter's a matrix of positions.
_INDEX_RANK = re.compile(
    r"\b\w{0,16}(?:[iI]dx|[iI]ndex|[iI]ndices)\w{0,8}\s{0,4}\.\s{0,4}"
    r"(?:dim\(\)\s{0,4}(?:==|!=)\s{0,4}(?P<rank>[1-4])\b|(?P<second>size\(\s{0,4}1\s{0,4}\)|sizes\(\)\[1\]))"
)


def index_rank(code: str) -> int | None:
    ranks = {int(m["rank"]) if m["rank"] else 2 for m in _INDEX_RANK.finditer(code)}
    return ranks.pop() if len(ranks) == 1 else None


# A tensor's rank a row checks (`x.dim() == 4`, `GetDimNum() != 4`): a bias added to a plane of
# channels takes a 4-D input, one added to a matrix a 2-D one.
_RANK_CHECK = re.compile(r"(?:\.dim\(\)|\.ndim\b|GetDimNum\(\))\s{0,4}[!=]=\s{0,4}([1-6])(?!\d)")


def checked_ranks(code: str) -> set[int]:
    return {int(n) for n in _RANK_CHECK.findall(code)} if "im" in code else set()


def of_the_ranks_checked(index: TaskIndex, tied: list[int], code: str) -> list[int]:
    """The tied tasks that take tensors of every rank the row checks, all where none does."""
    ranks = checked_ranks(code)
    kept = [t for t in tied if ranks and ranks <= {len(shape) for shape in index.signatures[t].input_shapes}]
    return kept or tied


def _task_adds_through_its_index(sig: TaskSignature) -> bool:
    return bool(_INDEX_WRITES & set(name_ops(sig.task))) and "add" in split_identifier(sig.task)


_IDENTIFIER = re.compile(r"[A-Za-z_]\w{2,63}")


def parameters_apart(index: TaskIndex, tied: list[int], code: str) -> list[int]:
    """The tied tasks with a constructor parameter the other tied tasks lack that the row names
    (`num_kv_heads` of `group_query_attention`, an op attribute or a tiling field, case and `_`
    aside), when some are and the others are not: a row written for a task carries its
    parameters."""
    sigs = [index.signatures[t] for t in tied]
    params = [{parameter_key(p) for p in sig.init_params} for sig in sigs]
    counts = Counter(p for own in params for p in own)
    apart = [{p for p in own if counts[p] == 1 and _telling(index, p)} for own in params]
    if not any(apart):
        return tied
    named = {parameter_key(ident) for ident in _IDENTIFIER.findall(code)}
    said = [t for t, own in zip(tied, apart, strict=True) if own & named]
    return said if said and len(said) < len(tied) else tied


def parameter_key(name: str) -> str:
    """A parameter's name as the index counts it and a row is searched for it: `num_kv_heads`,
    `numKvHeads` and `NUM_KV_HEADS` are one."""
    return name.lower().replace("_", "")


def _telling(index: TaskIndex, param: str) -> bool:
    """A constructor parameter at most three tasks of the benchmark take (`num_kv_heads`), not a
    size: a convolution's `stride`, `dilation` and `groups` are in dozens, and a generic kernel
    names them all whichever sibling it was written for."""
    if index.parameter_tasks.get(param, 0) > 3 or len(param) <= 3 or _A_SIZE.search(param):
        return False
    # nor one axis of such a parameter (`stride_h`, `kernel_size_w`): a kernel of any sibling
    # names its geometry per axis (fresh rows: standard convolutions placed on the one depthwise
    # task whose reference spells its parameters so)
    axis = _PER_AXIS.match(param)
    return axis is None or index.parameter_tasks.get(axis.group(1), 0) <= 3


# A size names no computation (`max_seqlen`, `batch_size`, `embed_dim`): every kernel has some.
_A_SIZE = re.compile(r"(?:size|len|length|dim|channels|shape)$")
_PER_AXIS = re.compile(r"(\w{4,}?)(?:h|w|d|height|width|depth)$")


def named_apart(index: TaskIndex, tied: list[int], words: set[str]) -> list[int]:
    """The tied tasks whose own name words, those the other tied names lack (`reverse` of
    `cumsum_reverse`, `exclusive`), the row all says, when some are and the others' are not.
    Only telling words count: at most three task names of the benchmark have them (`square`,
    `add` and `input` are in dozens, and a row says them for other reasons), and no tied task's
    parameters do (`hidden` of `hidden_size`: every solution of a GRU says it). Dev, renamed:
    186 -> 197 right, still 3 wrong; 2 to 4 names give the same."""
    sigs = [index.signatures[t] for t in tied]
    names, spoken = _name_words(index, tied)
    # An op's own name that every tied task computes is the row's step, not a name: `gather` of a
    # `take_along_dim` row (it gathers) tells it from no `gather` task. A qualifier stays telling
    # (`frobenius`, a norm l2_norm computes too).
    computed = {op.replace("_", "") for op in set.intersection(*(set(sig.ops) for sig in sigs))}
    spoken |= {w for ws in names for w in ws if w in computed}
    shared = set.intersection(*names)
    telling = {w for ws in names for w in ws - spoken if len(w) > 1 and index.name_word_tasks[w] <= 3}
    said = [t for t, ws in zip(tied, names, strict=True) if ws - shared and ws - shared <= telling & words]
    return said if said and len(said) < len(tied) else tied


_CALL_STRING = re.compile(r"=\s{0,8}'([a-z_]{3,32})'")  # `mode='bicubic'` of a reference's call


def call_strings(sig: TaskSignature) -> set[str]:
    """The string arguments a task's torch calls are made with (`interpolate(mode='nearest')`),
    spelt as a row's words are (`_` aside)."""
    return {value.replace("_", "") for call in sig.calls for value in _CALL_STRING.findall(call)}


def call_named_apart(index: TaskIndex, siblings: list[int], words: set[str]) -> int | None:
    """The one sibling whose calls' string arguments the row names, when it names no other
    sibling's: the mode of an upsample (`nearest`, `bicubic`, `trilinear`), which the siblings'
    names share with other words or do not say (`resize_with_antialias` is bilinear). A row
    naming `bilinear`, which four siblings are, places none."""
    strings = [call_strings(index.signatures[t]) for t in siblings]
    named = set().union(*strings) & words
    if not named:
        return None
    agreeing = [t for t, own in zip(siblings, strings, strict=True) if named <= own]
    return agreeing[0] if len(agreeing) == 1 else None


def _name_words(index: TaskIndex, tied: list[int]) -> tuple[list[set[str]], set[str]]:
    """Each tied task's name words (stop words aside), and the words their constructors'
    parameters are named with: every solution of either says those (`hidden` of `hidden_size`)."""
    sigs = [index.signatures[t] for t in tied]
    names = [set(task_name_words(sig.task)) - NAME_STOP_WORDS for sig in sigs]
    return names, {w for sig in sigs for p in sig.init_params for w in split_identifier(p)}


_NEGATIONS = frozenset({"no", "non", "without"})


def plain_apart(index: TaskIndex, tied: list[int], words: set[str]) -> list[int]:
    """The plain task of tied siblings (`gru`), when every other's name adds a telling word the
    row does not say (`bidirectional` of `gru_bidirectional`): a row written for the qualified
    task says how it differs, as `named_apart` reads it."""
    if len(tied) < 2:
        return tied
    names, spoken = _name_words(index, tied)
    if any(ws & _NEGATIONS for ws in names):  # `net_vlad_no_ghost_clusters` is no qualified one
        return tied

    def unsaid_qualifier(plain: set[str], qualified: set[str]) -> bool:
        added = qualified - plain - spoken
        return (
            plain < qualified
            and bool(added)
            and all(len(w) > 1 and index.name_word_tasks[w] <= 3 for w in added)
            and not added & words
        )

    for t, plain in zip(tied, names, strict=True):
        if all(unsaid_qualifier(plain, ws) for u, ws in zip(tied, names, strict=True) if u != t):
            return [t]
    return tied


# A switch set on or off (`bidirectional=False`, `batch_first = true`, `reverse: false`).
_SWITCH = re.compile(r"\b([A-Za-z_]\w{0,63})\s{0,8}[:=]\s{0,8}(True|true|False|false)\b")


def stated_switches(code: str) -> dict[str, bool]:
    """The switches a row states, name -> on (a GRU solution's `bidirectional=False` comment)."""
    if "rue" not in code and "alse" not in code:
        return {}
    return {name: value.lower() == "true" for name, value in _SWITCH.findall(code)}


def declared_kinds(constructors: Iterable[Sequence[str]]) -> dict[str, str]:
    """The kinds parameters are declared with, name -> kind in lower case, from constructors'
    parameters as `schemas.taskops.module_constructors` reads them (`kernel_size:tuple`,
    `kernel_size:Tuple[int,int]`; `stride:int|tuple=1` says none)."""
    kinds = {}
    for params in constructors:
        for param in params:
            name, _, declared = param.partition("=")[0].partition(":")
            kind = declared.split("[")[0].rsplit(".", 1)[-1].lower()
            if kind.isidentifier():
                kinds[name] = kind
    return kinds


def switched_off(switches: dict[str, bool]) -> set[str]:
    """The words of the one-word switches a row sets off: `bidirectional=False` is no word for
    `gru_bidirectional_hidden` (held-out-a, renamed: 1 wrong placement fewer). A longer name
    qualifies its last words (`affine_align_corners = false`)."""
    named = (split_identifier(name) for name, on in switches.items() if not on)
    return {words[0] for words in named if len(words) == 1}


def square_only(code: str) -> set[str]:
    """What a row refuses unless it is square ("input", "kernel"): a host check such as
    `if (kernelHeight != kernelWidth) return ...` means it was written for a square kernel."""
    if "!=" not in code:
        return set()
    return {role for check in _SQUARE_CHECK.finditer(code) if (role := _role(check.group(1).rstrip("_")))}


# A kernel of one extent: its weight indexed by that size squared (`cfg.k * cfg.k`) or laid out
# `[Cout, Cin, K, K]`; a kernel of two names them apart (`KH`, `kernelW`, `kernel_h`).
_ONE_EXTENT = re.compile(
    r"\b(?:\w{1,32}(?:\.|->))?(k|K|ks|kSize|ksize|kernelSize|kernel_size)\s{0,4}\*\s{0,4}(?:\w{1,32}(?:\.|->))?\1\b"
    r"|\[\s{0,4}\w{1,16}\s{0,4},\s{0,4}\w{1,16}(?:\s{0,4}/\s{0,4}\w{1,16})?\s{0,4},\s{0,4}(K|k)\s{0,4},\s{0,4}\2\s{0,4}\]"
)
_TWO_EXTENTS = re.compile(
    r"\b(?:KH|KW|kH|kW|kh_?size|kw_?size|[kK]ernel_?[hHwW]\w{0,16}|k_?[hH]eight|k_?[wW]idth|[kK]ernel(?:Height|Width))\b"
)


def one_kernel_extent(code: str) -> bool:
    """Whether the row's convolution kernel has one extent, height and width alike."""
    return _ONE_EXTENT.search(code) is not None and _TWO_EXTENTS.search(code) is None


def _role(name: str) -> str:
    """What a tensor's name says it is in a convolution: "kernel", "input" or "" (neither)."""
    name = name.lower()
    return "kernel" if name in _KERNEL_NAMES else "input" if name in _INPUT_NAMES else ""


# An op definition's output named after a recurrent state it returns (`c_n`, `h_n`, `hidden`).
_STATE_OUTPUTS = {"cn": "c_n", "cellstate": "c_n", "hn": "h_n", "hidden": "h_n", "hiddenstate": "h_n"}
_STATE_OUTPUTS |= dict.fromkeys(("y", "out", "output"), "output")  # the sequence of outputs


def _returned_state(outputs: list[str]) -> str:
    """The one recurrent state ("h_n", "c_n") an op definition's outputs are named after, if any."""
    states = {_STATE_OUTPUTS.get(re.sub(r"[^a-z]", "", name.lower()), "") for name in outputs}
    return states.pop() if len(states) == 1 else ""


# What a binding returns, as a variable or stacked (`return hn;`, `return at::stack(c_last, 0);`):
# the recurrent state the variable is named after. A value computed from a state
# (`return at::addmm(b, hLast, w.t());`, a model's head) names none.
_RETURN = re.compile(r"\breturn\s{1,8}(?:(?:at|torch)::(?:stack|cat)\s{0,8}\(\s{0,8})?([A-Za-z_]\w{0,40})\b")
_RETURNED_STATE = {
    **dict.fromkeys(("hn", "hlast", "hfinal", "hout", "hidden"), "h_n"),
    **dict.fromkeys(("cn", "clast", "cfinal", "cout", "cell"), "c_n"),
}


# What a binding's docstring or a comment says it returns ("stacked LSTM forward, returns h_n").
_SAID_RETURN = re.compile(r"\breturn(?:s|ing)\s{1,8}(?:the\s{1,8})?([A-Za-z_]\w{0,40})\b")


def returned_by_binding(code: str) -> str:
    """The one recurrent state ("h_n", "c_n") the row's return statements name, or its words say
    it returns, if any."""
    if "return" not in code:
        return ""
    words = _RETURN.findall(code) + _SAID_RETURN.findall(code)
    named = (_RETURNED_STATE.get(word.lower().replace("_", "")) for word in words)
    states = {state for state in named if state}
    return states.pop() if len(states) == 1 else ""


# A shape's dimensions in order, each apart from the next by a separator of a few characters
# (`16, 3, 256, 128`, `16 x 3 x 256 x 128`, `[16][3][256][128]`, `(16, 3,\n 256, 128)`).
_DIM_GAP = r"(?:\s{1,40}|\s{0,40}(?:[^\w\s.]{1,3}|[xX×])\s{0,40})"
# A dimension more, before or after: a comma, an `x` or blanks away (a bracket closes the shape).
_DIM_NEXT = r"(?:\s{1,40}|\s{0,40}[,xX×*]\s{0,40})"
_DIM_BEFORE = re.compile(rf"[\d.]{_DIM_NEXT}$")
_DIM_AFTER = re.compile(rf"{_DIM_NEXT}\d")


def states_shape(code: str, dims: list[int]) -> bool:
    """Whether the row writes out a shape of at least three dimensions, no more and no fewer (a
    test's input, a comment's `x: [16, 3, 256, 128]`): a kernel specialised to, or checked on, a
    task's input."""
    if len(dims) < 3 or str(dims[-1]) not in code:
        return False
    pattern = re.compile(r"(?<![\w.])" + _DIM_GAP.join(str(d) for d in dims) + r"(?![\w.])")
    return any(
        not _DIM_BEFORE.search(code, max(0, m.start() - 90), m.start())
        and not _DIM_AFTER.match(code, m.end())
        for m in pattern.finditer(code)
    )


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")


def ops_in_order(code: str) -> dict[str, int]:
    """Each op the row names (`ops_of_words` of its identifiers and words), at the place it first
    names it."""
    first: dict[str, int] = {}
    for word in _WORD.finditer(code):
        for op in ops_of_words(split_identifier(word.group(0))):
            first.setdefault(op, word.start())
    return first


def in_the_order_named(ops: list[str], named: dict[str, int]) -> bool:
    """Whether the row first names the ops of `ops` it names in their order in `ops` (a task's
    forward: `conv2d_hard_swish_relu` / `conv2d_relu_hard_swish`)."""
    seen = [named[op] for op in dict.fromkeys(ops) if op in named]
    return len(seen) >= 2 and seen == sorted(seen)


# A tensor's size checked equal to another of its sizes, in a binding's check
# (`TORCH_CHECK(x.size(2) == x.size(3) && x.size(3) == x.size(4), "input must be square")`).
_CHECK_CALL = re.compile(r"\bTORCH_CHECK\s{0,8}\(([^;]{0,400}?),\s{0,8}\"")
_SIZE_PAIR = re.compile(r"\b(\w{1,32})\.size\((\d)\)\s{0,8}==\s{0,8}\1\.size\((\d)\)")


def pinned_equal(code: str) -> dict[str, set[tuple[int, int]]]:
    """The dimensions of its input ("input") and of its weight ("kernel") a row's checks
    require equal, as pairs of torch dimension indices: a kernel written for a square input."""
    if "TORCH_CHECK" not in code:
        return {}
    pinned: dict[str, set[tuple[int, int]]] = {}
    for check in _CHECK_CALL.finditer(code):
        for tensor, a, b in _SIZE_PAIR.findall(check.group(1)):
            if (role := _role(tensor)) and a != b:
                pinned.setdefault(role, set()).add((int(a), int(b)))
    return pinned


def _equal_at(shapes: list[list[int]], pairs: set[tuple[int, int]]) -> bool:
    """Whether the (first) shape has equal sizes at every pair of dimension indices."""
    return bool(shapes) and all(max(a, b) < len(shapes[0]) and shapes[0][a] == shapes[0][b] for a, b in pairs)


def _square(shapes: list[list[int]]) -> bool:
    """Whether the (first) shape's last two dimensions, its height and width, are equal."""
    return bool(shapes) and len(shapes[0]) >= 3 and shapes[0][-1] == shapes[0][-2]


# An operand named `a` or `b` transposed in the row's Python or C++ (`a.transpose(0, 1)`,
# `B.t()`, `A.T`): a binding that hands the kernel the operand as the reference takes it.
_OPERAND_TRANSPOSED = re.compile(r"\b([aAbB])\.(?:T\b|mT\b|t\(\s*\)|transpose\s{0,8}\()")


def transposed_operands(code: str) -> set[str] | None:
    """The matmul operands ("a", "b") a row's AscendC calls or its binding take transposed; None
    when it sets neither operand's layout and transposes neither."""
    python = {side.lower() for side in _OPERAND_TRANSPOSED.findall(code)}
    if "Set" not in code:
        return python or None
    found: dict[str, bool] = dict.fromkeys(python, True)
    for side, args in _OPERAND_SETTING.findall(code):
        last = re.sub(r"/\*.{0,80}?\*/", "", args.rsplit(",", 1)[-1]).strip() if "," in args else ""
        found[side.lower()] = found.get(side.lower(), False) or last == "true"
    return {side for side, flag in found.items() if flag} if found else None
