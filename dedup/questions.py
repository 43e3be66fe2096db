"""Near-duplicate and leaking questions of the knowledge component, with the same MinHash and
LSH machinery as kernel dedup, over word n-grams of the question text.

Both functions change the verdict of accepted items in place (`duplicate`, `leak`) and add the
diagnostic that says why; they return how many they marked.
"""

from __future__ import annotations

import re

from dedup.lsh import band_params, buckets
from dedup.minhash import minhash_tokens
from dedup.shingles import shingle_strings
from schemas import BenchmarkItem, Diagnostic, KnowledgeItem

_WORD = re.compile(r"[a-z0-9_]+|[\u4e00-\u9fff]")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def mark_duplicates(items: list[KnowledgeItem], threshold: float, ngram: int = 3) -> int:
    """Accepted items whose question is a near-duplicate of an earlier accepted one become
    `duplicate` (first kept, in item order). Returns how many."""
    live = [i for i in items if i.verdict == "accepted"]
    if len(live) < 2:
        return 0
    tokens = [words(i.question) for i in live]
    sigs = minhash_tokens(tokens, ngram=ngram, num_perm=128)
    bands, rows = band_params(threshold, 128)
    sets = [shingle_strings(t, ngram) for t in tokens]
    dropped: set[int] = set()
    for group in buckets(sigs, bands, rows):
        members = sorted(int(g) for g in group)
        for pos, j in enumerate(members):
            if j in dropped:
                continue
            for k in members[pos + 1 :]:
                if k not in dropped and _jaccard(sets[j], sets[k]) >= threshold:
                    dropped.add(k)
    for k in dropped:
        live[k].verdict = "duplicate"
        live[k].diagnostics.append(Diagnostic("knowledge.duplicate", "error", "near-duplicate question"))
    return len(dropped)


def mark_leaks(
    items: list[KnowledgeItem], bench: list[BenchmarkItem], threshold: float, ngram: int = 3
) -> int:
    """Accepted items whose question is close to a benchmark task description become `leak`."""
    described = [(b, shingle_strings(words(b.description), ngram)) for b in bench if b.description.strip()]
    count = 0
    for item in items:
        if item.verdict != "accepted":
            continue
        mine = shingle_strings(words(item.question), ngram)
        for task, theirs in described:
            if _jaccard(mine, theirs) >= threshold or (mine and len(mine & theirs) / len(mine) >= 0.9):
                item.verdict = "leak"
                item.diagnostics.append(
                    Diagnostic(
                        "knowledge.leak", "error", f"question matches {task.benchmark}:{task.task_name}"
                    )
                )
                count += 1
                break
    return count
