"""What a corpus unit and a benchmark answer share, shown by what is distinctive in it.

Every AscendC kernel has `#include "kernel_operator.h"`, `using namespace AscendC;`, `SyncAll();`
and the same `pipe.InitBuffer(...)` lines: quoting those as the evidence of a leak proves
nothing. Each normalised line is weighed by how rare it is in a reference set (every benchmark
answer and a sample of the corpus units): its inverse document frequency, and a line found in
`COMMON_SHARE` of the documents or more weighs nothing. Shared ranges are ranked by the weight of
their lines, and quotes are the rarest shared lines of the strongest ranges.

The evidence per pair is bounded: the strongest few ranges (and how many there are) and a few
quoted lines; `full` quotes every shared line."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from dedup.normalize import token_count
from schemas.cpp import mask_comments

EXCERPT_LINES = 3  # shared lines quoted per leak in leakage.json (every one with full evidence)
MAX_RANGES = 8  # strongest shared line ranges listed per leak (the total is always given)
COMMON_SHARE = 0.25  # a line in this share of the reference documents says nothing about copying
MIN_REFERENCE = 4  # fewer reference documents than this (its pair aside): no line is called common
PAIR = 2  # a shared line is in both documents of its pair: they do not count towards its rarity
REFERENCE_UNITS = 200  # corpus units sampled (evenly) into the reference: about 1 s on any corpus
_MIN_LINE_TOKENS = 3  # "}" or "return;" alone say nothing about copying
_RUN_GAP = 3  # shared lines this close on both sides belong to one range (blank lines between)
_TEXT_CHARS = 160


def line_keys(code: str) -> list[str]:
    """Each line without comments, whitespace folded: copied lines compare equal all the same,
    and it is several times cheaper than tokenising every line of a 60,000-line unit."""
    return [" ".join(line.split()) for line in mask_comments(code).split("\n")]


class LineRarity:
    """Document frequency of normalised lines over a reference set of documents."""

    def __init__(self, documents: Iterable[str]) -> None:
        self.frequency: Counter[str] = Counter()
        self.documents = 0
        for code in documents:
            self.frequency.update({k for k in line_keys(code) if k})
            self.documents += 1

    @classmethod
    def of(cls, answers: Iterable[str], units: Sequence[str], sample: int = REFERENCE_UNITS) -> LineRarity:
        """Every benchmark answer and an even sample of at most `sample` corpus units."""
        step = max(1, math.ceil(len(units) / sample)) if sample else len(units) + 1
        return cls(itertools.chain(answers, units[::step]))

    def common(self, key: str, own: int = 0) -> bool:
        """A line most kernels have (include lines, `using namespace`, common calls), counted
        without the `own` documents that hold it (the pair it is shared by)."""
        others = self.documents - own
        return others >= MIN_REFERENCE and self.frequency[key] - own >= COMMON_SHARE * others

    def weight(self, key: str) -> float:
        """0 for a common line, else its inverse document frequency among the documents other
        than its pair (a line no other document has weighs the most)."""
        if self.common(key, PAIR):
            return 0.0
        others = max(0, self.documents - PAIR)
        return math.log((others + 1) / (max(0, self.frequency[key] - PAIR) + 1)) + 1.0

    def common_keys(self) -> frozenset[str]:
        """Every line most reference documents have."""
        return frozenset(k for k in self.frequency if self.common(k))


NO_REFERENCE = LineRarity(())


@dataclass(slots=True)
class _Doc:
    raw: list[str]
    keys: list[str]


def _doc(code: str) -> _Doc:
    return _Doc(code.split("\n"), line_keys(code))


def _line_index(doc: _Doc) -> dict[str, int]:
    at: dict[str, int] = {}
    for number, key in enumerate(doc.keys, start=1):
        if key:
            at.setdefault(key, number)
    return at


@functools.cache
def _says_something(key: str) -> bool:
    return token_count(key) >= _MIN_LINE_TOKENS


def _shared(bench: _Doc, corpus_at: dict[str, int]) -> list[tuple[int, int]]:
    """(benchmark line, corpus line) for every benchmark line found in the corpus document."""
    return [
        (n, corpus_at[k]) for n, k in enumerate(bench.keys, start=1) if k in corpus_at and _says_something(k)
    ]


def _runs(pairs: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Shared lines grouped into runs that advance together on both sides."""
    runs: list[list[tuple[int, int]]] = []
    for b, c in pairs:
        if runs and 0 < b - runs[-1][-1][0] <= _RUN_GAP and 0 < c - runs[-1][-1][1] <= _RUN_GAP:
            runs[-1].append((b, c))
        else:
            runs.append([(b, c)])
    return runs


def _span(run: list[tuple[int, int]]) -> list[int]:
    """[bench_from, bench_to, corpus_from, corpus_to], 1-based and inclusive."""
    return [run[0][0], run[-1][0], run[0][1], run[-1][1]]


def _quote(bench: _Doc, corpus: _Doc, b: int, c: int) -> dict[str, Any]:
    line: dict[str, Any] = {
        "benchmark_line": b,
        "corpus_line": c,
        "text": corpus.raw[c - 1].strip()[:_TEXT_CHARS],
    }
    bench_text = bench.raw[b - 1].strip()[:_TEXT_CHARS]
    if bench_text != line["text"]:
        line["benchmark_text"] = bench_text
    return line


class Evidence:
    """What two documents share, bounded: the most distinctive line ranges on both sides and a few
    of their rarest lines quoted (every shared line with `full`). Each distinct text is normalised
    once, and each distinct pair of texts compared once (the kernels of one multi-kernel file
    share their code)."""

    def __init__(self, full: bool = False, rarity: LineRarity = NO_REFERENCE) -> None:
        self.full = full
        self.rarity = rarity
        self._bench: dict[str, _Doc] = {}
        self._corpus: dict[str, tuple[_Doc, dict[str, int]]] = {}
        self._pairs: dict[tuple[str, str], dict[str, Any]] = {}

    def between(self, bench_code: str, corpus_code: str) -> dict[str, Any]:
        done = self._pairs.get((bench_code, corpus_code))
        if done is None:
            done = self._pairs[(bench_code, corpus_code)] = self._compare(bench_code, corpus_code)
        return dict(done)

    def _compare(self, bench_code: str, corpus_code: str) -> dict[str, Any]:
        bench = self._bench.get(bench_code)
        if bench is None:
            bench = self._bench[bench_code] = _doc(bench_code)
        if corpus_code not in self._corpus:
            doc = _doc(corpus_code)
            self._corpus[corpus_code] = (doc, _line_index(doc))
        corpus, corpus_at = self._corpus[corpus_code]
        pairs = _shared(bench, corpus_at)
        weight = {b: self.rarity.weight(bench.keys[b - 1]) for b, _ in pairs}
        runs = _runs(pairs)
        # Strongest first: the weight of its distinctive lines, then length, then position.
        ranked = sorted(runs, key=lambda r: (-sum(weight[b] for b, _ in r), -len(r), r[0][0]))
        distinctive = [(b, c) for b, c in pairs if weight[b] > 0]
        out: dict[str, Any] = {
            "overlapping_line_count": len(pairs),
            "distinctive_line_count": len(distinctive),
            "range_count": len(runs),
            "ranges": [_span(r) for r in ranked[:MAX_RANGES]],  # strongest first
        }
        if self.full:
            out["overlapping_lines"] = [_quote(bench, corpus, b, c) for b, c in pairs]
            return out
        quoted: list[tuple[int, int]] = []
        for run in ranked:  # the rarest lines of the strongest ranges, each range in its order
            rare = [p for p in run if weight[p[0]] > 0]
            quoted += sorted(sorted(rare, key=lambda p: -weight[p[0]])[: EXCERPT_LINES - len(quoted)])
            if len(quoted) >= EXCERPT_LINES:
                break
        out["excerpt"] = [_quote(bench, corpus, b, c) for b, c in quoted]
        return out
