"""Decisions: leaks first, then near-duplicate clusters, every verdict with its evidence."""

from __future__ import annotations

import numpy as np

from dedup.cluster import UnionFind, confirm_buckets
from dedup.config import DedupConfig
from dedup.decide import run_dedup
from dedup.leakage import match_benchmark, prefix_length
from dedup.normalize import abstract_identifiers, tokenize
from dedup.shingles import build_shingle_sets, jaccard
from schemas.cpp import mask_comments
from tests.test_dedup_helpers import LICENCE, elementwise_kernel, item, run_audit, unit, unrelated_kernel


def by_id(decisions):
    return {d.unit_id: d for d in decisions}


def test_tokens_keep_punctuation_numbers_and_literals() -> None:
    tokens = tokenize('x <<= 2; y->z = "a // b"; /* gone */ w >> 1.5e-3f; // gone too')
    assert tokens == ["x", "<<=", "2", ";", "y", "->", "z", "=", '"a // b"', ";", "w", ">>", "1.5e-3f", ";"]


def test_comment_stripping_keeps_line_numbers() -> None:
    code = "/* a\n b\n c */ int x;\n// d\nint y;"
    assert mask_comments(code).count("\n") == code.count("\n")


def test_licence_header_does_not_make_unrelated_files_alike() -> None:
    a, b = LICENCE + unrelated_kernel(), LICENCE + "int main() { return 0; }\n"
    sets = build_shingle_sets([a, b])
    assert jaccard(sets.doc(0), sets.doc(1)) == 0.0
    # Without stripping, the shared header alone would dominate the shingles of `b`.
    raw = build_shingle_sets([a.replace("/**", "").replace("*/", ""), b.replace("/**", "").replace("*/", "")])
    assert jaccard(raw.doc(0), raw.doc(1)) > 0.2


def test_licence_header_alone_does_not_leak() -> None:
    units = [unit("u1", LICENCE + unrelated_kernel())]
    items = [item("b1", [LICENCE + elementwise_kernel()])]
    result = run_dedup(units, items, DedupConfig())
    assert result.decisions[0].decision == "keep"


def test_abstraction_keeps_api_names_and_keywords() -> None:
    tokens = abstract_identifiers(tokenize("AscendC::DataCopy(myLocal, srcGm[i], len); for (int32_t i = 0;"))
    assert tokens[:4] == ["AscendC", "::", "DataCopy", "("] and "$" in tokens
    assert "for" in tokens and "int32_t" in tokens and "myLocal" not in tokens


def test_renamed_copy_is_caught_only_in_abstracted_mode() -> None:
    renamed = elementwise_kernel(queue="qIn0", tile="chunk").replace("xGm", "gmA").replace("yGm", "gmB")
    renamed = renamed.replace("zGm", "gmOut").replace("inQueueY", "qIn1").replace("outQueueZ", "qOut")
    units = [unit("u1", renamed), unit("u2", unrelated_kernel())]
    items = [item("b1", [elementwise_kernel()])]
    plain = by_id(run_dedup(units, items, DedupConfig()).decisions)
    assert plain["u1"].decision == "keep"
    abstract = by_id(run_dedup(units, items, DedupConfig(abstract_identifiers=True)).decisions)
    assert abstract["u1"].decision == "leak" and abstract["u1"].match_id == "b1"
    assert abstract["u2"].decision == "keep"


def test_containment_catches_a_benchmark_kernel_inside_a_larger_file() -> None:
    helpers = "\n".join(
        f"__aicore__ inline float helper{i}(float v) {{ return v * {i}.5f + {i * 3}; }}" for i in range(60)
    )
    big = helpers + "\n" + elementwise_kernel() + "\n" + unrelated_kernel()
    units = [unit("big", big)]
    items = [item("b1", [elementwise_kernel()])]
    d = run_dedup(units, items, DedupConfig()).decisions[0]
    assert d.decision == "leak" and d.method == "containment" and d.score == 1.0
    corpus = build_shingle_sets([big])
    bench = build_shingle_sets([elementwise_kernel()])
    (pair,) = match_benchmark(corpus, bench, 0.7, 0.8)
    assert pair.jaccard < 0.7 and pair.containment == 1.0  # Jaccard alone would miss it


def test_matches_have_exact_scores_and_no_false_positive() -> None:
    base = elementwise_kernel()
    lines = base.split("\n")
    half = "\n".join(lines[: len(lines) // 2])  # shares about half the shingles
    corpus = build_shingle_sets([base, half, unrelated_kernel()])
    bench = build_shingle_sets([base])
    pairs = {p.corpus: p for p in match_benchmark(corpus, bench, 0.7, 0.8)}
    assert set(pairs) == {0}
    expected = jaccard(corpus.doc(1), bench.doc(0))
    assert 0.3 < expected < 0.7  # a real candidate that must be rejected by the exact score


def test_lsh_candidates_are_confirmed_with_exact_jaccard() -> None:
    sets = build_shingle_sets([elementwise_kernel(), elementwise_kernel("Mul"), unrelated_kernel()])
    docs = np.arange(3)
    # A bucket is only a candidate list: the dissimilar member must not be merged.
    assert confirm_buckets([np.array([0, 2])], sets, docs, 0.7) == ([], 1)
    edges, scored = confirm_buckets([np.array([0, 2]), np.array([0, 1, 2])], sets, docs, 0.7)
    uf = UnionFind(3)
    for a, b in edges:
        uf.union(a, b)
    assert uf.find(0) == uf.find(1) != uf.find(2)
    assert scored == 2  # (0, 2) shares two buckets and is scored once; 2 is not compared with 1


def test_exact_and_near_duplicates_cluster_with_evidence() -> None:
    base = elementwise_kernel()
    units = [
        unit("a", base),
        unit("b", "// another header\n" + base),  # exact after normalisation
        unit("c", elementwise_kernel(extra="    int32_t spare = 1;\n")),  # near
        unit("d", unrelated_kernel()),
    ]
    result = run_dedup(units, None, DedupConfig())
    d = by_id(result.decisions)
    kept = [x for x in "abc" if d[x].decision == "keep"]
    assert len(kept) == 1 and d["d"].decision == "keep"
    assert d["a"].cluster_id == d["b"].cluster_id == d["c"].cluster_id != d["d"].cluster_id
    for x in "abc":
        if x != kept[0]:
            assert d[x].decision == "duplicate" and d[x].match_id == kept[0] and d[x].score >= 0.7
            assert d[x].method in ("exact", "jaccard") and d[x].match_path == f"ops/{kept[0]}.cpp"
    assert result.counts["duplicates"] == 2
    assert any("no benchmark" in note for note in result.notes)


def test_cluster_representative_is_deterministic_and_follows_the_policy() -> None:
    base = elementwise_kernel()
    longer = elementwise_kernel(extra="    int32_t spare = 1;\n")
    units = [
        unit("z-longest-unknown", longer, license_name="unknown"),
        unit("y-longer-partial", longer + "\n", status="partial"),
        unit("x-full", base),
        unit("w-full", base),
    ]
    # Permissive beats longer code, a full parse beats a partial one, then the longest code,
    # then the smallest id: x-full and w-full tie on everything else, so w-full is kept.
    for order in ([0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]):
        decisions = by_id(run_dedup([units[i] for i in order], None, DedupConfig()).decisions)
        assert sorted(uid for uid, d in decisions.items() if d.decision == "keep") == ["w-full"]
        assert {d.match_id for d in decisions.values() if d.decision == "duplicate"} == {"w-full"}
    units.append(unit("v-full-longest", longer + "\n\n"))
    decisions = by_id(run_dedup(units, None, DedupConfig()).decisions)
    assert sorted(uid for uid, d in decisions.items() if d.decision == "keep") == ["v-full-longest"]


def test_leak_evidence_and_precedence_over_duplicates() -> None:
    units = [
        unit("copy", elementwise_kernel()),
        unit("copy2", elementwise_kernel()),
        unit("other", unrelated_kernel()),
    ]
    items = [item("b1", [unrelated_kernel() + "\n", elementwise_kernel()], task="AddCustom", level=2)]
    result = run_dedup(units, items, DedupConfig())
    d = by_id(result.decisions)
    for uid in ("copy", "copy2", "other"):
        assert d[uid].decision == "leak" and d[uid].match_id == "b1" and d[uid].match_source == "bench"
    assert d["copy"].match_path.endswith("answer/1/op_kernel/kernel.cpp")
    assert d["other"].match_path.endswith("answer/0/op_kernel/kernel.cpp")
    assert result.counts["leaks"] == 3 and result.counts["leaked_items"] == 1


def test_name_matches_are_a_separate_signal() -> None:
    units = [
        unit("named", unrelated_kernel(), op="add_custom"),
        unit("plain", elementwise_kernel("Mul"), op="mul"),
    ]
    items = [item("b1", [LICENCE], task="AddCustom")]  # an answer with no code after stripping
    kept = by_id(run_dedup(units, items, DedupConfig()).decisions)
    assert kept["named"].decision == "keep" and kept["named"].name_match == "AddCustom"
    assert kept["plain"].name_match == ""
    dropped = by_id(run_dedup(units, items, DedupConfig(drop_name_matches=True)).decisions)
    assert dropped["named"].decision == "leak" and dropped["named"].method == "name"
    assert dropped["plain"].decision == "keep"


def test_bad_corpora_give_correct_results() -> None:
    one = run_dedup([unit("only", elementwise_kernel())], [item("b1", [unrelated_kernel()])], DedupConfig())
    assert [d.decision for d in one.decisions] == ["keep"]
    empty = run_dedup(
        [unit("e1", ""), unit("e2", "// comment only\n"), unit("k", unrelated_kernel())], None, DedupConfig()
    )
    assert [d.decision for d in empty.decisions] == ["keep", "keep", "keep"]
    assert empty.counts["empty_code_units"] == 2
    assert any("2 unit(s) have no code" in note for note in empty.notes)
    pytorch_only = run_dedup(
        [unit("u", unrelated_kernel(), op="relu")], [item("b", [], task="19_ReLU")], DedupConfig()
    )
    assert pytorch_only.decisions[0].name_match == "19_ReLU"
    assert any("only op-name matching" in note for note in pytorch_only.notes)


def test_prefix_length_bounds() -> None:
    assert prefix_length(10, 0.8) == 3 and prefix_length(1, 0.8) == 1 and prefix_length(10, 1.0) == 1


def test_audit_counts() -> None:
    findings, counts = run_audit(
        [unit("u", elementwise_kernel())], [item("b", [elementwise_kernel()])], DedupConfig()
    )
    assert counts["leaks"] == 1 and counts["leaked_items"] == 1 and findings.leaks[0].method == "exact"


def test_bucket_verdicts_do_not_depend_on_the_order_buckets_come_in() -> None:
    """What lets Ray group the buckets with a shuffle: the confirmed pairs of each bucket depend
    on the bucket alone, so any order of buckets gives the same pairs and the same clusters."""
    base = elementwise_kernel()
    docs = [
        base,
        elementwise_kernel(extra="    int32_t spare = 1;\n"),
        elementwise_kernel("Mul"),
        unrelated_kernel(),
        base.replace("BUFFER_NUM = 2", "BUFFER_NUM = 1"),
    ]
    sets = build_shingle_sets(docs)
    positions = np.arange(len(docs))
    candidates = [np.array([0, 1, 2]), np.array([1, 3, 4]), np.array([0, 4]), np.array([2, 3])]
    edges, scored = confirm_buckets(candidates, sets, positions, 0.7)
    for order in ([3, 2, 1, 0], [2, 0, 3, 1]):
        again, again_scored = confirm_buckets([candidates[i] for i in order], sets, positions, 0.7)
        assert sorted(again) == sorted(edges) and again_scored == scored
    assert edges and scored >= len(set(edges))
