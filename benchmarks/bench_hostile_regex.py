"""What the regular expressions the project applies to user text cost on hostile input: each row is
about 100 KB of one shape a pattern once scanned without bound on (a long word, a run of blank
lines, an opening without its closing, ...), timed through the public function a stage calls.
Prints the median milliseconds of 3 runs per row (and per size with --growth). Not a test: the
results are asserted in tests/test_hostile_regex.py.

    python benchmarks/bench_hostile_regex.py [--growth] [NAME-SUBSTRING ...]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from annotate.checker.judge import skipped_declarations
from annotate.checker.opcontext import tiling_fields
from annotate.reasoning.claims import clauses
from annotate.reasoning.knowledge_checks import code_blocks, named_apis, stated_prototypes
from annotate.reasoning.substance import check_injection
from annotate.statement import clean_constraint, lead_paragraph
from annotate.tasks.kernel_reasoning import _tagged_sections, drop_licence_comments
from curate.code_blocks import extract_blocks
from dedup.idioms import handwritten_ops
from dedup.tasks import _LAYER_LIST, candidate_facts
from dedup.ties import returned_by_binding, square_only, stated_switches, transposed_operands
from dedup.weak_tasks import arithmetic_op, elementwise_ops, epilogue_ops, performed_reductions
from parsers.classify import name_tokens
from parsers.docs import parse_operator_doc, plain, sections
from parsers.doctree import chunk_page, declared_names
from parsers.facts import api_calls, core_type, tiling_keys
from parsers.library import bare_calls
from parsers.provenance import without_credentials
from parsers.units import normalise_op_name
from schemas.ascendc import blank_launch_statements, rewrite_launches
from schemas.taskops import module_constructors

N = 100_000


def _doc(text: str) -> object:
    return parse_operator_doc(text, "op/README.md")


def _page(text: str) -> object:
    return chunk_page(text, "docs/api.md", "docs")


def _auto_blocks(text: str) -> object:
    return extract_blocks(text, "auto")


def _cann_version(text: str) -> object:
    from curate.publish.licenses import _CANN_VERSION_RE  # what canonical() asks of a CANN name

    return _CANN_VERSION_RE.search(text)


def _prototypes(text: str) -> object:
    return stated_prototypes("```\n" + text + "\n```\n", ["x"])


def _literals_removed(text: str) -> object:
    from annotate.checker.classify import _code_only  # what the checker asks of a diagnosed line

    return _code_only(text)


def _declared(text: str) -> object:
    from annotate.checker.qualified import _declared_in_text  # asked for a call clang rejected

    return _declared_in_text("Foo", [text])


def _addresses(text: str) -> object:
    from curate.publish.secret_scan import _scan_extra  # the publish gate's own checks of a line

    return _scan_extra([text], [])


def _torch_file(text: str) -> object:
    from parsers.benchmark import _TORCH_RE  # what ingest_benchmark asks of every .py file

    return _TORCH_RE.search(text)


ROWS: dict[str, tuple[Callable[[str], object], Callable[[int], str]]] = {
    "extract_blocks: unclosed <code ": (_auto_blocks, lambda n: "<code " * (n // 6)),
    "rewrite_launches: '<' run": (rewrite_launches, lambda n: "<" * n),
    "rewrite_launches: 'a<<<' repeated": (rewrite_launches, lambda n: "a<<<" * (n // 4)),
    "blank_launch_statements: word then <<<": (blank_launch_statements, lambda n: "a" * n + "<<<"),
    "blank_launch_statements: k<<<a>>>( no ;": (blank_launch_statements, lambda n: "k<<<a>>>(" * (n // 9)),
    "sections: heading of spaces": (sections, lambda n: "# a" + " " * n + "b\n"),
    "parse_operator_doc: blank lines": (_doc, lambda n: "# T\n" + "\n" * n + "x"),
    "parse_operator_doc: '*' lines": (_doc, lambda n: "# T\n" + "*\n" * (n // 2)),
    "parse_operator_doc: '- ' bullets": (_doc, lambda n: "# 参数\n" + "- \n" * (n // 3)),
    "parse_operator_doc: line of spaces": (_doc, lambda n: "# T\n| a | b |\n" + " " * n + "\n"),
    "parse_operator_doc: unclosed <!--": (_doc, lambda n: "<!--" * (n // 4)),
    "parse_operator_doc: unclosed <table": (_doc, lambda n: "# T\n" + "<table" * (n // 6)),
    "chunk_page: prototype of one word": (_page, lambda n: "# Prototype\n```\n" + "a" * n + "\n```\n"),
    "chunk_page: unclosed <!--": (_page, lambda n: "<!--" * (n // 4)),
    "plain: '[' run then ')'": (plain, lambda n: "[" * n + ")"),
    "plain: '<' run": (plain, lambda n: "<" * n),
    "declared_names: word then spaces": (declared_names, lambda n: "a" + " " * n),
    "declared_names: 'a<' repeated": (declared_names, lambda n: "a<" * (n // 2)),
    "normalise_op_name: capitals": (normalise_op_name, lambda n: "A" * n),
    "name_tokens: capitals": (name_tokens, lambda n: "A" * n),
    "torch import check: blank lines": (_torch_file, lambda n: "\n" * n + "x"),
    "api_calls: 'A<' repeated": (lambda t: api_calls(t, set()), lambda n: "A<" * (n // 2)),
    "api_calls: a name then spaces": (lambda t: api_calls(t, set()), lambda n: "A" + " " * n),
    "api_calls: 'asc_a<' repeated": (lambda t: api_calls(t, set()), lambda n: "asc_a<" * (n // 6)),
    "core_type: '__global__ ' repeated": (
        lambda t: core_type(t, [], []),
        lambda n: "__global__ " * (n // 11),
    ),
    "tiling_keys: unclosed TILING_KEY_IS(": (
        lambda t: tiling_keys(t, {}),
        lambda n: "TILING_KEY_IS(" * (n // 14),
    ),
    "bare_calls: 'a<' repeated": (bare_calls, lambda n: "a<" * (n // 2)),
    "bare_calls: a name then spaces": (bare_calls, lambda n: "a" + " " * n),
    "check_injection: a reply of line breaks": (lambda t: list(check_injection(t)), lambda n: "\n" * n),
    "clauses: a run of spaces": (clauses, lambda n: "a" + " " * n + "b."),
    "skipped_declarations: a long const line": (
        lambda t: skipped_declarations({"k.cpp": t}, {"k.cpp": ""}),
        lambda n: "const " + "a " * (n // 2) + "= 1;",
    ),
    "tiling_fields: a field across lines": (
        tiling_fields,
        lambda n: "struct T {\n    " + "a " * (n // 2) + "\n};\n",
    ),
    "candidate_facts: unclosed input_desc lists": (
        candidate_facts,
        lambda n: '"input_desc": [ "name": "x"' * (n // 27),
    ),
    "module_constructors: unclosed __init__": (
        module_constructors,
        lambda n: "class M(torch.nn.Module):\n" + "    def __init__(self, " * (n // 23),
    ),
    # the second sweep (before these fixes, 100 KB: 21.5 s, 55 s, 3.5 s, 0.2 s, 3.8 s, 12.3 s,
    # 4.4 s, 19.8 s, 124 s, 135 s, 9 s, 3.5 s, in this order)
    "without_credentials: 'a.' run": (without_credentials, lambda n: "a." * (n // 2)),
    "CANN version: 'version' then spaces": (_cann_version, lambda n: "cann version" + " " * n),
    "lead_paragraph: unclosed '<'": (lead_paragraph, lambda n: "A sample paragraph\n" + "<" * n),
    "lead_paragraph: heading lines": (lead_paragraph, lambda n: "#\n" * (n // 2) + "A sample paragraph."),
    "clean_constraint: 'aFLOAT' word": (clean_constraint, lambda n: "aFLOAT" * (n // 6)),
    "drop_licence_comments: unclosed /*": (
        drop_licence_comments,
        lambda n: "// Copyright\n" + "/*a" * (n // 3),
    ),
    "reply sections: unclosed <analysis>": (_tagged_sections, lambda n: "<analysis>" * (n // 10)),
    "stated_prototypes: 'int' word": (_prototypes, lambda n: "int" * (n // 3)),
    "named_apis: 'Aa' word": (named_apis, lambda n: "Aa" * (n // 2)),
    "named_apis: backticked 'Aa' word": (named_apis, lambda n: "`" + "Aa" * (n // 2) + "!`"),
    "named_apis: 'Aa' then spaces": (named_apis, lambda n: "Aa" + " " * n),
    "code_blocks: a line of backticks": (code_blocks, lambda n: "`" * n),
    # found by its fuzz (before, 100 KB: 47 s, 35 s, 62 s at 50 KB, 7.4 s)
    "checker literals: unclosed escapes": (_literals_removed, lambda n: '"\\' * (n // 2)),
    "checker literals: a run of slashes": (_literals_removed, lambda n: "/" * n + "\nx"),
    "checker declarations: one long word": (_declared, lambda n: "_" * n),
    "secret scan: a line of %": (_addresses, lambda n: "%" * n),
    # the code shapes of dedup/idioms.py (hand-written ops), each tried on what it could scan
    "handwritten_ops: one long word": (
        handwritten_ops,
        lambda n: "a" * n + " ? 0.0f : exp( max Maxs Mins Sigmoid igmoid anchor h0 grid Abs ool um",
    ),
    "handwritten_ops: 'pool' in a word": (handwritten_ops, lambda n: "pool" * (n // 4) + " ool"),
    "handwritten_ops: 'inv' in a word": (handwritten_ops, lambda n: "inv" * (n // 3) + " pool ool"),
    "handwritten_ops: 'Sum' in a word": (handwritten_ops, lambda n: "Sum" * (n // 3) + " * inv um"),
    "handwritten_ops: spaces in a branch": (handwritten_ops, lambda n: "if (" + " " * n + "? 0.0f"),
    "handwritten_ops: conditionals": (handwritten_ops, lambda n: "x > 0.0f ? " * (n // 11)),
    "handwritten_ops: Maxs without a scalar": (handwritten_ops, lambda n: "Maxs(a, b, " * (n // 11)),
    "handwritten_ops: Maxs without a ;": (handwritten_ops, lambda n: "Maxs(" * (n // 5) + " -1.0f ;"),
    "handwritten_ops: Sigmoid without a ;": (handwritten_ops, lambda n: "Sigmoid(a, b " * (n // 13)),
    "handwritten_ops: fminf(fmaxf( then a word": (
        handwritten_ops,
        lambda n: "fminf(fmaxf(" * (n // 24) + "x" * (n // 2),
    ),
    "handwritten_ops: Abs then ReduceSum": (
        handwritten_ops,
        lambda n: "Abs(" * (n // 8) + "ReduceSum " * (n // 20),
    ),
    "handwritten_ops: sigmoid openings": (handwritten_ops, lambda n: "1.0f / (1.0f + exp(" * (n // 20)),
    "handwritten_ops: softplus openings": (handwritten_ops, lambda n: "log(1 + exp" * (n // 11)),
    "handwritten_ops: zero-clamp openings": (handwritten_ops, lambda n: "if (v < 0.0f) { " * (n // 16)),
    # the weak-op forms of dedup/weak_tasks.py and the tie breakers of dedup/ties.py
    "performed_reductions: compares": (performed_reductions, lambda n: "a = (b > a) ? b : a; " * (n // 22)),
    "performed_reductions: one long word": (performed_reductions, lambda n: "x" * n + " = (y > x) ? y : x"),
    "performed_reductions: 'sum reduce'": (performed_reductions, lambda n: "sum reduce " * (n // 11)),
    "elementwise_ops: 'Max(' openings": (elementwise_ops, lambda n: "Max( " * (n // 5)),
    "square_only: H != W": (square_only, lambda n: "kh != kw " * (n // 9)),
    "square_only: long words": (square_only, lambda n: ("k" * 60 + "h != ") * (n // 65)),
    "transposed_operands: SetAType( openings": (transposed_operands, lambda n: "SetAType(" * (n // 9)),
    "arithmetic_op: 'Adds<' openings": (arithmetic_op, lambda n: "Adds< " * (n // 6)),
    "arithmetic_op: a call name, then spaces": (arithmetic_op, lambda n: "Adds" + " " * n),
    "epilogue_ops: a call name, then spaces": (epilogue_ops, lambda n: "Maxs" + " " * n),
    "handwritten_ops: 'Abs', then spaces": (handwritten_ops, lambda n: "Abs" + " " * n),
    "arithmetic_op: Add and Mul calls": (arithmetic_op, lambda n: "Add(a); Muls(b); " * (n // 17)),
    "stated_switches: '= false' runs": (stated_switches, lambda n: "a = false, " * (n // 11)),
    "stated_switches: one long word": (stated_switches, lambda n: "x" * n + " = true"),
    "stated_switches: '=' runs": (stated_switches, lambda n: "flag = " * (n // 7) + "true"),
    "returned_by_binding: 'returns ' runs": (
        returned_by_binding,
        lambda n: "// returns " * (n // 11) + "h_n",
    ),
    "candidate_facts: 'where ' clauses": (candidate_facts, lambda n: "// where a b c d " * (n // 17)),
    "layer lists: unclosed vector parameters": (
        lambda text: _LAYER_LIST.search(text),
        lambda n: "(const std::vector<at::Tensor> " * (n // 31),
    ),
}


def median_ms(fn: Callable[[str], object], text: str) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - start)
    return sorted(times)[1] * 1000


def main(argv: list[str]) -> None:
    growth = "--growth" in argv
    wanted = [a for a in argv if not a.startswith("--")]
    sizes = (N // 4, N // 2, N) if growth else (N,)
    for name, (fn, make) in ROWS.items():
        if wanted and not any(w in name for w in wanted):
            continue
        cells = [f"{len(make(n)) / 1000:4.0f} KB {median_ms(fn, make(n)):8.1f} ms" for n in sizes]
        print(f"{name:45} " + "   ".join(cells), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
