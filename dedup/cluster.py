"""Near-duplicate clusters: connected components (union-find) of the LSH candidate pairs that
pass exact Jaccard."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from dedup.shingles import ShingleSets, jaccard

# In a bucket of many mutually dissimilar documents, a member is compared with at most this many
# of them: bounds the work on adversarial buckets.
_MAX_HEADS_PER_MEMBER = 8


class UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, x: int, y: int) -> None:
        rx, ry = self.find(x), self.find(y)
        if rx != ry:
            # The smaller index becomes the root: the result does not depend on visiting order.
            if ry < rx:
                rx, ry = ry, rx
            self.parent[ry] = rx

    def groups(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            out.setdefault(self.find(i), []).append(i)
        return out


def bucket_edges(
    members: Sequence[int],
    doc: Callable[[int], np.ndarray],
    threshold: float,
    judged: dict[tuple[int, int], bool],
) -> list[tuple[int, int]]:
    """The confirmed pairs of one LSH bucket (documents in increasing order): each member is
    compared with the bucket's earlier unmatched members (heads, at most a few) and joins the
    first whose exact Jaccard passes `threshold`; a member that joins none becomes a head.

    A function of the bucket alone: buckets can be judged in any order and on any machine, and
    the union of their pairs is the same. `judged` remembers verdicts (a pair that shares
    several bands is scored once) and changes no result.
    """
    edges: list[tuple[int, int]] = []
    heads: list[int] = []
    for member in members:
        joined = False
        for head in heads[:_MAX_HEADS_PER_MEMBER]:
            pair = (head, member)
            verdict = judged.get(pair)
            if verdict is None:
                verdict = judged[pair] = jaccard(doc(head), doc(member)) >= threshold
            if verdict:
                edges.append(pair)
                joined = True
                break
        if not joined:
            heads.append(member)
    return edges


def confirm_buckets(
    candidates: Iterable[np.ndarray], sets: ShingleSets, docs: np.ndarray, threshold: float
) -> tuple[list[tuple[int, int]], int]:
    """Confirmed pairs (documents) of every candidate bucket, and the distinct pairs scored.

    `candidates` hold positions into `docs` (the documents that were signed, in increasing
    order). The clusters are the connected components of the confirmed pairs (`UnionFind`):
    they do not depend on the order in which buckets come, which is what lets a distributed
    engine group the buckets with a shuffle and still give the local engine's clusters.
    """
    judged: dict[tuple[int, int], bool] = {}
    edges: list[tuple[int, int]] = []
    for bucket in candidates:
        members = docs[bucket].tolist()
        edges.extend(bucket_edges(members, sets.doc, threshold, judged))
    return edges, len(judged)
