"""From shingles to verdicts: leaks against the benchmark first, then near-duplicate clusters.

Order matters: a unit that leaks is removed whatever else it resembles, and only the units that
survive are clustered, so a cluster representative is never a leaked unit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from dedup.cluster import UnionFind, confirm_buckets
from dedup.config import DedupConfig
from dedup.leakage import PairScore, match_benchmark
from dedup.lsh import band_params, buckets
from dedup.minhash import signatures
from dedup.names import name_index, op_name_key
from dedup.shingles import ShingleSets, Vocabulary, build_shingle_sets, jaccard, vocabulary_of
from dedup.tasks import TaskIndex, match_units
from schemas import BenchmarkItem, Decision, KernelUnit, stable_id
from schemas.licenses import is_permissive
from schemas.tasks import TaskMatch

_METHOD_RANK = {"exact": 0, "jaccard": 1, "containment": 2, "name": 3}


@dataclass(slots=True)
class Leak:
    """One corpus unit matching one benchmark answer above a threshold (all are kept as evidence)."""

    unit: int  # index into the units
    item: int  # index into the benchmark items
    answer: int  # index into item.answers
    method: str  # exact | jaccard | containment
    score: float
    jaccard: float
    containment: float
    overlap: int  # shared distinct shingles


@dataclass(slots=True)
class LeakFindings:
    leaks: list[Leak] = field(default_factory=list)
    name_matches: list[tuple[int, int]] = field(default_factory=list)  # (unit, item)
    bench_docs: int = 0  # benchmark answers with code (some shingle left after removing comments)
    tasks: list[TaskMatch] = field(default_factory=list)  # task-level matches (dedup.tasks)


@dataclass(slots=True)
class DedupResult:
    decisions: list[Decision]
    findings: LeakFindings
    counts: dict[str, int]
    notes: list[str]


def keep_rank(unit: KernelUnit) -> tuple[int, int, int, str]:
    """Smaller is kept first: permissive licence, then full parse, then longest code, then id."""
    return (
        0 if is_permissive(unit.license) else 1,
        0 if unit.parse_status == "full" else 1,
        -len(unit.code),
        unit.unit_id,
    )


def _answer_docs(items: list[BenchmarkItem]) -> list[tuple[int, int]]:
    return [(i, k) for i, item in enumerate(items) for k, code in enumerate(item.answers) if code.strip()]


def _leak_from_pair(
    pair: PairScore, corpus: ShingleSets, bench: ShingleSets, where: tuple[int, int], cfg: DedupConfig
) -> Leak:
    if corpus.text_hashes[pair.corpus] and corpus.text_hashes[pair.corpus] == bench.text_hashes[pair.bench]:
        method, score = "exact", 1.0
    elif pair.jaccard >= cfg.threshold - 1e-9 and pair.jaccard >= pair.containment:
        method, score = "jaccard", pair.jaccard
    elif pair.containment >= cfg.containment - 1e-9:
        method, score = "containment", pair.containment
    else:
        method, score = "jaccard", pair.jaccard
    item, answer = where
    return Leak(pair.corpus, item, answer, method, score, pair.jaccard, pair.containment, pair.overlap)


@dataclass(slots=True)
class BenchIndex:
    """The small side, prepared once and shared by every shard of the large side (broadcast)."""

    where: list[tuple[int, int]]  # (item, answer) of each benchmark document
    sets: ShingleSets
    vocabulary: Vocabulary  # the benchmark's shingles: a shard keeps only these of its own
    names: dict[str, list[str]]  # op-name key -> item indices (as strings)
    tasks: TaskIndex | None = None  # task signatures, when the test side states its tasks


def bench_index(items: list[BenchmarkItem], cfg: DedupConfig, tasks: TaskIndex | None = None) -> BenchIndex:
    where = _answer_docs(items)
    answers = [items[i].answers[k] for i, k in where]
    vocabulary = vocabulary_of(answers, cfg.ngram, cfg.abstract_identifiers)
    # read through its own vocabulary: every shingle is in it, each SHA-1 taken once, above
    bench = build_shingle_sets(answers, cfg.ngram, cfg.abstract_identifiers, vocabulary)
    index = name_index({str(i): it.op_name or it.task_name for i, it in enumerate(items)})
    for i, it in enumerate(items):  # the task name too, when it differs from the op name
        norm = op_name_key(it.task_name)
        if len(norm) >= 2 and str(i) not in index.get(norm, []):
            index.setdefault(norm, []).append(str(i))
    return BenchIndex(where, bench, vocabulary, index, tasks)


def sort_leaks(leaks: list[Leak], units: list[KernelUnit], items: list[BenchmarkItem]) -> None:
    """Strongest first; ties in a fixed order (method, unit id, item id)."""
    leaks.sort(
        key=lambda lk: (-lk.score, _METHOD_RANK[lk.method], units[lk.unit].unit_id, items[lk.item].item_id)
    )


def probe(units: list[KernelUnit], index: BenchIndex, cfg: DedupConfig, corpus: ShingleSets) -> LeakFindings:
    """Leaks and name matches of some corpus units against the index (unit = position in
    `units`, unsorted). Every pair is judged on its own exact scores, so shards of a corpus give
    together exactly what the whole corpus gives."""
    pairs = match_benchmark(corpus, index.sets, cfg.threshold, cfg.containment, cfg.min_containment_shingles)
    leaks = [_leak_from_pair(p, corpus, index.sets, index.where[p.bench], cfg) for p in pairs]
    matches: list[tuple[int, int]] = []
    for u, unit in enumerate(units):
        norm = op_name_key(unit.op_name or unit.kernel_name)
        matches.extend((u, int(i)) for i in index.names.get(norm, []))
    return LeakFindings(leaks, matches, int((index.sets.sizes() > 0).sum()))


def find_leaks(
    units: list[KernelUnit], items: list[BenchmarkItem], cfg: DedupConfig, corpus: ShingleSets
) -> LeakFindings:
    """Code leaks (every passing pair) and op-name matches between corpus units and benchmark items."""
    findings = probe(units, bench_index(items, cfg), cfg, corpus)
    sort_leaks(findings.leaks, units, items)
    return findings


@dataclass(slots=True)
class ShardAudit:
    """What one shard of the training side contributes: its leaks and name matches, with the
    few units they involve (unit = position in `units`), and its counts."""

    units: list[KernelUnit]
    findings: LeakFindings
    documents: int
    empty: int


def audit_shard(units: list[KernelUnit], index: BenchIndex, cfg: DedupConfig) -> ShardAudit:
    """Shingle one shard against the benchmark's vocabulary and probe it; keep only the units a
    finding names."""
    codes = (u.code for u in units)
    corpus = build_shingle_sets(codes, cfg.ngram, cfg.abstract_identifiers, index.vocabulary)
    found = probe(units, index, cfg, corpus)
    found.tasks = match_units(units, index.tasks) if index.tasks is not None else []
    return _named_units_only(units, found, len(units), int((corpus.sizes() == 0).sum()))


def _named_units_only(units: list[KernelUnit], found: LeakFindings, documents: int, empty: int) -> ShardAudit:
    """The shard with only the units its findings name (copies, name matches, task matches),
    each finding renumbered to index them."""
    involved = sorted(
        {lk.unit for lk in found.leaks} | {u for u, _ in found.name_matches} | {m.unit for m in found.tasks}
    )
    at = {u: k for k, u in enumerate(involved)}
    for lk in found.leaks:
        lk.unit = at[lk.unit]
    for match in found.tasks:
        match.unit = at[match.unit]
    found.name_matches = [(at[u], i) for u, i in found.name_matches]
    return ShardAudit([units[u] for u in involved], found, documents, empty)


# Takes one shard's task matches with the shard's units (`TaskMatch.unit` indexes them).
TaskSink = Callable[[list[TaskMatch], list[KernelUnit]], None]


def merge_shards(
    shards: Iterable[ShardAudit],
    items: list[BenchmarkItem],
    index: BenchIndex,
    tasks_to: TaskSink | None = None,
) -> tuple[list[KernelUnit], LeakFindings, dict[str, int]]:
    """The audit of the whole training side from its shards, in shard order (any engine).

    With `tasks_to`, each shard's task matches go there as the shard arrives (with its units),
    and only the units a copy or a name match involves are kept: task matches can be counted in
    the hundred thousands, and keeping their units would make memory grow with them. The task
    counters are then `tasks_to`'s to give (here they are 0)."""
    units: list[KernelUnit] = []
    findings = LeakFindings(bench_docs=int((index.sets.sizes() > 0).sum()))
    documents = empty = 0
    for shard in shards:
        if tasks_to is not None:
            tasks_to(shard.findings.tasks, shard.units)
            shard = _without_tasks(shard)
        base = len(units)
        units.extend(shard.units)
        for lk in shard.findings.leaks:
            lk.unit += base
            findings.leaks.append(lk)
        findings.name_matches.extend((u + base, i) for u, i in shard.findings.name_matches)
        for match in shard.findings.tasks:
            match.unit += base
            findings.tasks.append(match)
        documents += shard.documents
        empty += shard.empty
    sort_leaks(findings.leaks, units, items)
    return units, findings, _audit_counts(findings, documents, len(items), empty)


def _without_tasks(shard: ShardAudit) -> ShardAudit:
    """The shard with its task matches taken out, and only the units its copies and name
    matches name (renumbered)."""
    shard.findings.tasks = []
    return _named_units_only(shard.units, shard.findings, shard.documents, shard.empty)


def _audit_counts(findings: LeakFindings, documents: int, items: int, empty: int) -> dict[str, int]:
    return {
        "train_documents": documents,
        "test_items": items,
        "test_answers": findings.bench_docs,
        "leaks": len({lk.unit for lk in findings.leaks}),
        "leak_pairs": len(findings.leaks),
        "leaked_items": len({lk.item for lk in findings.leaks}),
        "name_matches": len({u for u, _ in findings.name_matches}),
        "empty_train_documents": empty,
        **task_counts(findings.tasks),
    }


def task_counts(tasks: list[TaskMatch]) -> dict[str, int]:
    """Training documents placed on a task (not those a judge said no to, nor the candidates
    kept for a judge that has not confirmed them)."""
    kept = [m for m in tasks if m.judge != "no" and m.layer != "candidate"]
    return {
        "task_matches": len({m.unit for m in kept}),
        "task_matches_fused": len({m.unit for m in kept if m.level == "fused"}),
        "task_matches_op": len({m.unit for m in kept if m.level == "op"}),
        "task_matches_tied": len({m.unit for m in kept if m.tied}),
        "task_matched_items": len({m.item for m in kept}),
        "task_matches_judged_no": len({m.unit for m in tasks if m.judge == "no"}),
    }


def _strongest(leaks: list[Leak]) -> dict[int, Leak]:
    best: dict[int, Leak] = {}
    for leak in leaks:  # already sorted strongest first
        best.setdefault(leak.unit, leak)
    return best


class DedupEngine(Protocol):
    """Where run_dedup's heavy steps run: this process (`LocalEngine`) or a cluster (curate's
    Ray engine). Every engine must give the same values: the decisions are made from them by
    the same code."""

    def shingle(self, codes: list[str], cfg: DedupConfig) -> ShingleSets:
        """The shingle sets of every document, in input order."""
        ...

    def sign(self, corpus: ShingleSets, cfg: DedupConfig) -> np.ndarray:
        """The MinHash signature of every document of `corpus`."""
        ...

    def confirm(
        self, sig: np.ndarray, docs: np.ndarray, corpus: ShingleSets, cfg: DedupConfig
    ) -> tuple[list[tuple[int, int]], int]:
        """Confirmed pairs among `docs` (increasing; `sig` holds their signatures, one row each)
        from their LSH buckets (dedup.cluster.confirm_buckets), and the distinct pairs scored."""
        ...


class LocalEngine:
    def shingle(self, codes: list[str], cfg: DedupConfig) -> ShingleSets:
        return build_shingle_sets(codes, cfg.ngram, cfg.abstract_identifiers)

    def sign(self, corpus: ShingleSets, cfg: DedupConfig) -> np.ndarray:
        return signatures(corpus, cfg.num_perm, cfg.seed, cfg.scheme)

    def confirm(
        self, sig: np.ndarray, docs: np.ndarray, corpus: ShingleSets, cfg: DedupConfig
    ) -> tuple[list[tuple[int, int]], int]:
        bands, rows = band_params(cfg.threshold, cfg.num_perm)
        return confirm_buckets(buckets(sig, bands, rows), corpus, docs, cfg.threshold)


LOCAL = LocalEngine()


def _near_duplicate_groups(
    corpus: ShingleSets, eligible: list[int], cfg: DedupConfig, engine: DedupEngine
) -> tuple[UnionFind, int]:
    """Union exact copies, then LSH candidates among one member per exact group that pass Jaccard."""
    uf = UnionFind(len(corpus))
    first_of_text: dict[str, int] = {}
    for u in eligible:
        first = first_of_text.setdefault(corpus.text_hashes[u], u)
        if first != u:
            uf.union(first, u)
    signed = np.array(sorted(first_of_text.values()), dtype=np.int64)
    if len(signed) < 2:
        return uf, 0
    # Signing every document is cheaper than copying out the subset; only `signed` rows are used.
    sig = engine.sign(corpus, cfg)[signed]
    edges, comparisons = engine.confirm(sig, signed, corpus, cfg)
    for a, b in edges:
        uf.union(a, b)
    return uf, comparisons


def run_dedup(
    units: list[KernelUnit],
    items: list[BenchmarkItem] | None,
    cfg: DedupConfig,
    engine: DedupEngine = LOCAL,
) -> DedupResult:
    """Decide keep / duplicate / leak for every unit (in input order), with evidence."""
    corpus = engine.shingle([u.code for u in units], cfg)
    findings = find_leaks(units, items, cfg, corpus) if items else LeakFindings()
    best = _strongest(findings.leaks)
    names: dict[int, int] = {}
    for u, i in findings.name_matches:
        names.setdefault(u, i)
    dropped_by_name = set(names) - set(best) if cfg.drop_name_matches else set()

    sizes = corpus.sizes()
    eligible = [u for u in range(len(units)) if u not in best and u not in dropped_by_name and sizes[u] > 0]
    uf, comparisons = _near_duplicate_groups(corpus, eligible, cfg, engine)

    decisions: list[Decision | None] = [None] * len(units)
    counts = {"exact_duplicates": 0, "near_duplicates": 0, "clusters": 0}
    eligible_set = set(eligible)
    for members in uf.groups().values():
        members = [m for m in members if m in eligible_set]
        if not members:
            continue
        rep = min(members, key=lambda m: keep_rank(units[m]))
        cluster = stable_id("cluster", units[rep].unit_id)
        counts["clusters"] += len(members) > 1
        for m in members:
            decisions[m] = _cluster_decision(units, corpus, m, rep, cluster)
            if m != rep:
                counts["exact_duplicates" if decisions[m].method == "exact" else "near_duplicates"] += 1  # type: ignore[union-attr]

    for u, unit in enumerate(units):
        name = items[names[u]].task_name if items and u in names else ""
        if u in best:
            decisions[u] = _leak_decision(unit, items or [], best[u])
        elif u in dropped_by_name and items:
            item = items[names[u]]
            decisions[u] = Decision(
                unit.unit_id, "leak", "", item.item_id, item.benchmark, item.path, 1.0, "name"
            )
        elif decisions[u] is None:  # no code to compare: kept, and counted in the notes
            decisions[u] = Decision(unit.unit_id, "keep", stable_id("cluster", unit.unit_id))
        decisions[u].name_match = name  # type: ignore[union-attr]

    final = [d for d in decisions if d is not None]
    empty = int((sizes == 0).sum())
    counts.update(_counts(units, items, findings, final, empty, comparisons))
    return DedupResult(final, findings, counts, _notes(items, empty, findings.bench_docs))


def _cluster_decision(
    units: list[KernelUnit], corpus: ShingleSets, m: int, rep: int, cluster: str
) -> Decision:
    if m == rep:
        return Decision(units[m].unit_id, "keep", cluster)
    rep_unit = units[rep]
    if corpus.text_hashes[m] == corpus.text_hashes[rep]:
        method, score = "exact", 1.0
    else:  # may sit below the threshold when the cluster is connected through other members
        method, score = "jaccard", jaccard(corpus.doc(m), corpus.doc(rep))
    return Decision(
        units[m].unit_id,
        "duplicate",
        cluster,
        rep_unit.unit_id,
        rep_unit.source,
        rep_unit.path,
        round(score, 6),
        method,
    )


def _leak_decision(unit: KernelUnit, items: list[BenchmarkItem], leak: Leak) -> Decision:
    item = items[leak.item]
    path = item.answer_paths[leak.answer] if leak.answer < len(item.answer_paths) else item.path
    return Decision(
        unit.unit_id, "leak", "", item.item_id, item.benchmark, path, round(leak.score, 6), leak.method
    )


def _counts(
    units: list[KernelUnit],
    items: list[BenchmarkItem] | None,
    findings: LeakFindings,
    decisions: list[Decision],
    empty: int,
    comparisons: int,
) -> dict[str, int]:
    by = {"keep": 0, "duplicate": 0, "leak": 0}
    for d in decisions:
        by[d.decision] += 1
    return {
        "units": len(units),
        "benchmark_items": len(items or []),
        "benchmark_answers": findings.bench_docs,
        "kept": by["keep"],
        "duplicates": by["duplicate"],
        "leaks": by["leak"],
        "leak_pairs": len(findings.leaks),
        "leaked_items": len({lk.item for lk in findings.leaks}),
        "name_matches": len({u for u, _ in findings.name_matches}),
        "empty_code_units": empty,
        "lsh_comparisons": comparisons,
    }


def _notes(items: list[BenchmarkItem] | None, empty: int, bench_docs: int) -> list[str]:
    notes = []
    if items is None:
        notes.append("no benchmark ingested: near-duplicate removal only, no leakage check")
    elif bench_docs == 0:
        notes.append("benchmark has no kernel code (PyTorch-only?): only op-name matching applied")
    if empty:
        notes.append(f"{empty} unit(s) have no code after removing comments: kept, not compared")
    return notes
