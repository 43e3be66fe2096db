"""Task-level decontamination records: what a benchmark task asks for, and a training row that
was placed on it.

A `TaskSignature` is read from what the benchmark states (a PyTorch reference module or a task
description): the computation in order, as canonical op names (`conv`, `min`, `tanh`, ...), the
constants it is run with, and the words that describe it. A `TaskMatch` says which layer placed
a training document on a task (identity: the names; semantics: what the code states and does;
judge: an LLM's verdict) with the facts of both sides that decided it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# `OperatorDoc.kind` of a table row's own text beside its code (its instruction or prompt column):
# task matching reads its words and numbers (`dedup.tasks.unit_prose`), never its ops.
ROW_TEXT_KIND = "row-text"


@dataclass(slots=True)
class TaskSignature:
    """What one benchmark task computes, as read from its reference or description."""

    task: str  # the task name (file stem, or the table's id)
    item: int = -1  # index of the benchmark item it belongs to
    ops: list[str] = field(default_factory=list)  # the name's ops, then `forward_ops` (repeats kept)
    # The canonical ops `forward` computes, in order (a text task: none; its words give `ops`).
    forward_ops: list[str] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)  # the torch calls as written, e.g. "torch.min(dim=1)"
    reductions: list[str] = field(default_factory=list)  # e.g. "min(dim=1)", "sum(dim=[2, 3])"
    init_params: list[str] = field(default_factory=list)  # __init__ parameter names
    input_shapes: list[list[str]] = field(default_factory=list)  # get_inputs tensors, dims as written
    input_dtypes: list[str] = field(default_factory=list)
    constants: list[int] = field(default_factory=list)  # integer values of module-level constants
    # Every number the reference states (module constants evaluated, `get_init_inputs` values,
    # literals of `forward` and `__init__` defaults: a negative slope, an eps, a scale, a shape).
    values: list[float] = field(default_factory=list)
    dims: list[int] = field(default_factory=list)  # spatial ranks of its modules (Conv2d -> 2)
    words: list[str] = field(default_factory=list)  # docstring and comment words (lower case)
    source: str = "pytorch"  # pytorch | text
    # Structure a solution written for the task repeats: the `Model` constructor's parameters
    # (`schemas.taskops.module_constructors`) and the shapes `get_inputs` builds, evaluated.
    constructor: list[str] = field(default_factory=list)
    input_dims: list[list[int]] = field(default_factory=list)
    # The weight shapes of the convolutions `__init__` builds, evaluated with `get_init_inputs`
    # ([out, in / groups, *kernel]; a transposed one [in, out / groups, *kernel]).
    weight_dims: list[list[int]] = field(default_factory=list)
    # The operands its matrix products take transposed: "a" for `matmul(A.T, B)`, "b" for `B.T`.
    transposed: list[str] = field(default_factory=list)
    # What a recurrent reference returns: "output", "h_n" or "c_n" ("" for any other reference).
    returns: str = ""
    # The switches its modules are built with (`nn.GRU(..., bidirectional=True)`), name -> on.
    switches: dict[str, bool] = field(default_factory=dict)
    # The lines that build its model (`schemas.taskops.model_lines`), as compared.
    model_lines: list[str] = field(default_factory=list)
    # The module-level settings it names (`batch_size`, `num_classes`): what its inputs are made of.
    settings: list[str] = field(default_factory=list)
    # The ops of each module class it defines besides `Model` (a network's blocks: `FireModule`).
    blocks: list[list[str]] = field(default_factory=list)


@dataclass(slots=True)
class CandidateFacts:
    """What a training document states and does, read from its text (any format)."""

    names: list[str] = field(default_factory=list)  # op, kernel, tiling and binding names
    function_names: list[str] = field(
        default_factory=list
    )  # names it only calls (device functions, launched ops)
    inputs: list[str] = field(default_factory=list)  # op definition inputs
    outputs: list[str] = field(default_factory=list)
    attrs: list[str] = field(default_factory=list)
    tiling_fields: list[str] = field(default_factory=list)
    apis: list[str] = field(default_factory=list)  # AscendC calls, in first-seen order
    ops: dict[str, str] = field(default_factory=dict)  # canonical op -> the word that showed it
    inferred: list[str] = field(default_factory=list)  # ops of `ops` recognised from other ops
    # ops of `ops` shown only by a code shape that also serves other ends (`dedup.idioms`)
    incidental: list[str] = field(default_factory=list)
    handwritten: list[str] = field(default_factory=list)  # ops of `ops` shown by a code shape only
    numbers: list[int] = field(default_factory=list)
    values: list[float] = field(default_factory=list)  # every number literal, floats included
    dims: list[int] = field(default_factory=list)  # spatial ranks its names say (conv2d, pool3d)
    # The constructors of the torch modules it defines (a submission's `ModelNew`), and the
    # tensor shapes its binding pins dimension by dimension (`x.size(1) == 3 && x.size(2) == 64`).
    constructors: list[list[str]] = field(default_factory=list)
    pinned_shapes: list[list[int]] = field(default_factory=list)


@dataclass(slots=True)
class TaskMatch:
    """One training document placed on one benchmark task."""

    unit: int  # index of the training unit (in the list the report holds)
    item: int  # index of the benchmark item
    # identity | semantics | judge (placed by a judge's yes) | candidate (for a judge to decide,
    # never counted as a match: made only when a judge is configured)
    layer: str
    level: str  # fused (every step of a multi-op task is done) | op (a single-op task)
    score: float  # 0..1, higher = more certain; identity matches are 1.0 (fused) or 0.9 (op)
    confidence: str  # high | medium | low
    matched_ops: list[str] = field(default_factory=list)  # task ops found, with the word that showed each
    name: str = ""  # the candidate name that equals the task's (identity)
    shared_numbers: list[float] = field(default_factory=list)  # values both sides state
    judge: str = ""  # "", yes, no: the judge's verdict when one was asked
    # Why semantics placed it there (`dedup.tasks.BASES`): the score, the structure the row
    # repeats, a tie settled, the numbers of one network, the one task its hand-written op is.
    basis: str = ""
    # Other tasks a judge is asked about, in rank order, when it refuses this one (layer candidate)
    alternatives: list[TaskMatch] = field(default_factory=list)
    # Other tasks (benchmark items) the document solves as well as this one, as far as its words
    # and structure say: it solves one of them (siblings such as `matmul_with_transposed_a` and
    # `_b` differ in what a renamed row no longer states). Empty for a placement on one task.
    tied: list[int] = field(default_factory=list)
