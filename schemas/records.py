"""The records themselves. Field order is column order."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Annotated

# An integer column that holds every value of an unsigned 64-bit C++ integer (tiling keys such as
# `TILING_KEY_IS(10000000000000000024UL)`, array sizes). Plain `int` columns are int64.
UInt64 = Annotated[int, "uint64"]
UINT64_MAX = 2**64 - 1

# Bump when a column is added, removed or changes meaning; stored in every workspace's meta.json.
SCHEMA_VERSION = 3  # 2: tiling_keys and array_size are uint64; lines, chars, tokens. 3: doc (OperatorDoc)


@dataclass(slots=True)
class Diagnostic:
    """One finding of a parser or verifier check, named so it can be counted and fed back."""

    check: str  # e.g. "clang", "include", "grounding.api_exists"
    severity: str  # "error" | "warning" | "note"
    message: str
    path: str = ""
    line: int = 0


@dataclass(slots=True)
class Param:
    """A function or template parameter: `GM_ADDR x` -> Param("x", "GM_ADDR")."""

    name: str
    type: str


@dataclass(slots=True)
class KernelClass:
    name: str
    methods: list[str] = field(default_factory=list)
    template_params: list[Param] = field(default_factory=list)


@dataclass(slots=True)
class TilingField:
    name: str
    type: str
    array_size: UInt64 = 0  # TILING_DATA_FIELD_DEF_ARR / C arrays; 0 for scalars


@dataclass(slots=True)
class TensorSpec:
    """One OpDef input or output: `this->Input("x").DataType({...}).Format({...})`."""

    name: str
    param_type: str = "REQUIRED"
    dtypes: list[str] = field(default_factory=list)
    formats: list[str] = field(default_factory=list)


@dataclass(slots=True)
class OpDef:
    op_type: str = ""
    inputs: list[TensorSpec] = field(default_factory=list)
    outputs: list[TensorSpec] = field(default_factory=list)
    attrs: list[Param] = field(default_factory=list)
    socs: list[str] = field(default_factory=list)


@dataclass(slots=True)
class DocParam:
    """One row of an operator document's parameter table (HTML or pipe table), as facts."""

    name: str
    direction: str = ""  # input | output | inout | attribute | "" (not stated)
    optional: bool = False
    description: str = ""  # the cell as written (may be Chinese)
    dtypes: list[str] = field(default_factory=list)  # canonical: float16, float32, bfloat16, int8, ...
    formats: list[str] = field(default_factory=list)  # ND, NCHW, NC1HWC0, FRACTAL_NZ, ...
    shape: str = ""  # rank/shape note as written ("1-8", "2维", ...)


@dataclass(slots=True)
class OperatorDoc:
    """What an operator's own documentation says it computes (`parsers/docs.py`): the folder's
    README.md and docs/*.md, a sample's README, a benchmark task's api_desc.md."""

    path: str  # the document the facts come from, relative to the repository root
    kind: str  # operator-readme | aclnn | sample-readme | api-desc | doc
    language: str  # zh | en
    title: str = ""
    function: str = ""  # what the operator computes, as written
    formulas: list[str] = field(default_factory=list)  # LaTeX between $$ ... $$
    params: list[DocParam] = field(default_factory=list)
    constraints: list[str] = field(default_factory=list)
    products: list[str] = field(default_factory=list)  # supported products, as named
    sources: list[str] = field(default_factory=list)  # every document that contributed a field
    raw: str = ""  # the main document's text (HTML comments removed, bounded)


@dataclass(slots=True)
class KernelUnit:
    """One kernel entry (`__global__ __aicore__` function) with what is needed to understand it."""

    unit_id: str
    source: str  # the name given at ingest (`--name`, default: directory name)
    origin_url: str  # `git remote get-url origin`, "" when not a git repository
    commit: str  # HEAD commit, "" when not a git repository
    path: str  # entry file, relative to the repository root, POSIX separators
    layout: str  # msopgen | direct-invoke | single-source | catlass | benchmark-task | standalone
    op_name: str
    kernel_name: str
    params: list[Param] = field(default_factory=list)
    template_params: list[Param] = field(default_factory=list)
    kernel_classes: list[KernelClass] = field(default_factory=list)
    tiling_struct: str = ""
    tiling_fields: list[TilingField] = field(default_factory=list)
    tiling_keys: list[UInt64] = field(default_factory=list)  # unsigned 64-bit in AscendC
    host_tiling: str = ""  # name of the host tiling function, "" when none was found
    op_def: OpDef | None = None
    apis: list[str] = field(default_factory=list)  # AscendC APIs called, sorted unique
    queue_positions: list[str] = field(default_factory=list)  # e.g. ["VECIN", "VECOUT"]
    buffer_num: int = 0  # largest queue buffer count seen (2 = double buffering); 0 unknown
    core_type: str = "vector"  # vector | cube | mixed
    category: str = "other"
    level: int = 1
    license: str = "unknown"  # SPDX id, a known licence name, or "unknown"
    code: str = ""  # entry file plus the repository-local headers it includes, each once
    host_code: str = ""  # op_host sources, or the host main of a direct-invoke sample
    includes: list[str] = field(default_factory=list)  # repository-local files assembled into code
    preprocessor: list[str] = field(default_factory=list)  # macros defined for the parse (the branch seen)
    loc: int = 0  # non-blank lines of `code`
    parse_status: str = "full"  # full | partial
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lines: int = 0  # lines of `code` (assembled unit), see `code_size`
    chars: int = 0  # characters of `code`
    tokens: int = 0  # token estimate of `code`: ceil(chars / 4)
    doc: OperatorDoc | None = None  # the operator's documentation, None when it has none


# Units longer than this (assembled lines) are kept in units.parquet, deduplicated and audited,
# but neither annotated nor published. Chosen from the measured distribution (README, "Unit
# size"): the 94th percentile of 1,462 units from nine real repositories; 4,000 lines are about
# 40k tokens by the chars/4 rule, what a 64k-context teacher can read with room left to answer.
DEFAULT_MAX_UNIT_LINES = 4000


def unit_lines(unit: KernelUnit) -> int:
    """Lines of a unit's assembled code (counted when the table predates the `lines` column)."""
    return unit.lines or code_size(unit.code)[0]


def oversized(unit: KernelUnit, max_lines: int) -> bool:
    """Whether a unit is over the `max_unit_lines` bound (0: no bound)."""
    return max_lines > 0 and unit_lines(unit) > max_lines


def code_size(code: str) -> tuple[int, int, int]:
    """(lines, chars, tokens) of assembled code. The token estimate is ceil(chars / 4), the usual
    rule of thumb for BPE tokenizers on source code; it decides nothing finer than a size bound."""
    if not code:
        return 0, 0, 0
    return code.count("\n") + (not code.endswith("\n")), len(code), math.ceil(len(code) / 4)


@dataclass(slots=True)
class BenchmarkItem:
    """One benchmark task. Its answer kernels are what a training set must not contain."""

    item_id: str
    benchmark: str  # the name given at ingest
    task_name: str  # e.g. "AddCustom", or the id column of a table benchmark
    op_name: str  # normalised later for name matching; kept as the task names it
    level: int  # 0 when the benchmark does not say
    category: str
    path: str  # task directory (or file) relative to the benchmark root
    answers: list[str] = field(default_factory=list)  # assembled kernel code, one per answer/<k>
    answer_paths: list[str] = field(default_factory=list)
    reference: str = ""  # PyTorch reference when the benchmark gives one
    description: str = ""  # api_desc.md or the task text
    license: str = "unknown"
    origin_url: str = ""
    commit: str = ""


@dataclass(slots=True)
class Decision:
    """The dedup verdict for one corpus unit, with the evidence that decided it."""

    unit_id: str
    decision: str  # keep | duplicate | leak
    cluster_id: str = ""
    match_id: str = ""  # unit_id of the kept representative, or item_id of the benchmark item
    match_source: str = ""
    match_path: str = ""
    score: float = 0.0
    method: str = ""  # exact | jaccard | containment | name | task-identity | task-semantics | task-judge
    name_match: str = ""  # benchmark task whose normalised name equals this unit's op name


@dataclass(slots=True)
class Annotation:
    """The teacher's reasoning for one unit and the verifier's verdict on it."""

    unit_id: str
    teacher_model: str
    prompt_version: str
    instruction: str
    reasoning: str
    answer: str
    verdict: str  # accepted | rejected | failed | pending
    attempts: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    created_at: str = ""
    teacher_fingerprint: str = ""
    generation_params: str = ""  # JSON of temperature, top_p, max_tokens, seed


@dataclass(slots=True)
class Attempt:
    """One teacher response for one unit in one verification round. Rejected attempts are kept:
    with an accepted attempt of the same unit they form a preference pair (chosen/rejected)."""

    unit_id: str
    round: int  # 1 for the first answer, 2 for the first retry with feedback, ...
    reasoning: str
    verdict: str  # accepted | rejected | failed
    diagnostics: list[Diagnostic] = field(default_factory=list)
    teacher_model: str = ""
    prompt_version: str = ""
    created_at: str = ""


@dataclass(slots=True)
class DatasetRow:
    """One published Ascend-CoT example (`curate build` -> DIR/dataset.parquet; the `raw` config).

    Only units that dedup kept and whose annotation the verifier accepted (rejected ones too with
    `--include-rejected`, published as their own config). Provenance columns follow The Stack's."""

    id: str  # the unit_id: stable across builds
    instruction: str
    reasoning: str
    answer: str  # the real kernel code
    op_name: str
    kernel_name: str
    category: str
    level: int
    core_type: str
    apis: list[str] = field(default_factory=list)
    source: str = ""
    origin_url: str = ""
    commit: str = ""
    path: str = ""
    license: str = "unknown"
    teacher_model: str = ""
    prompt_version: str = ""
    verifier: list[str] = field(default_factory=list)  # the verification checks that ran on this row
    verdict: str = "accepted"
    rounds: int = 0  # teacher rounds until the verdict (1 = first answer)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # The verifier's findings on the published reasoning: a column of the `rejected` config (why
    # the answer was rejected), not of `raw`.
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # Workspace only (not a published column): train | validation, from a hash of the operator.
    split: str = "train"


@dataclass(slots=True)
class PreferencePair:
    """A DPO pair from the verification rounds of one unit (`curate build` -> DIR/preference.parquet):
    chosen = the accepted reasoning, rejected = a rejected attempt of the same unit."""

    id: str  # stable_id(unit_id, chosen round, rejected round)
    unit_id: str
    instruction: str
    answer: str  # the real kernel code, shared by both sides
    chosen: str  # reasoning of the accepted attempt
    rejected: str  # reasoning of the rejected attempt
    chosen_round: int = 0
    rejected_round: int = 0
    rejected_checks: list[str] = field(default_factory=list)  # checks the rejected attempt failed
    license: str = "unknown"
    split: str = "train"  # workspace only, as in DatasetRow


@dataclass(slots=True)
class DocChunk:
    """One section of a documentation tree (`curate ingest-docs` -> docs.parquet): the unit of the
    knowledge component. Facts are extracted (parsers/doctree.py); the text is kept for grounding."""

    chunk_id: str  # stable_id(source, path, title path)
    source: str
    origin_url: str
    commit: str
    path: str  # the markdown file, relative to the repository root
    title_path: list[str] = field(default_factory=list)  # page title, then section titles
    apis: list[str] = field(default_factory=list)  # API names the chunk defines (its prototypes, title)
    prototypes: list[str] = field(default_factory=list)  # declarations as written
    params: list[DocParam] = field(default_factory=list)  # parameter tables (name, direction, description)
    constraints: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)  # code blocks outside the prototypes
    language: str = "en"  # zh | en
    license: str = "unknown"  # the nearest LICENSE file, never guessed
    text: str = ""  # the chunk's markdown (HTML comments removed)
    chars: int = 0


@dataclass(slots=True)
class KnowledgeItem:
    """One question about one documentation chunk, with the teacher's reasoning and answer
    (`curate annotate --task knowledge` -> knowledge.parquet)."""

    item_id: str  # stable_id(chunk_id, question)
    chunk_id: str
    question: str
    reasoning: str
    answer: str
    verdict: str  # accepted | rejected | duplicate | leak
    diagnostics: list[Diagnostic] = field(default_factory=list)
    title_path: list[str] = field(default_factory=list)
    apis: list[str] = field(default_factory=list)
    source: str = ""
    origin_url: str = ""
    commit: str = ""
    path: str = ""
    license: str = "unknown"
    teacher_model: str = ""
    prompt_version: str = ""
    split: str = "train"


def stable_id(*parts: str) -> str:
    """A short, stable content hash: the same inputs give the same id on every machine."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()
    return digest[:16]
