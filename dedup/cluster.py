"""Near-duplicate clusters: union-find over LSH candidates that pass exact Jaccard."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from dedup.shingles import ShingleSets, jaccard

# In a bucket whose members belong to many different clusters, a member is compared with at
# most this many of them (each a different cluster): bounds the work on adversarial buckets.
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


def confirm_buckets(
    uf: UnionFind,
    candidates: Iterable[np.ndarray],
    sets: ShingleSets,
    docs: np.ndarray,
    threshold: float,
) -> int:
    """Union candidate pairs whose exact Jaccard passes `threshold`; returns comparisons made.

    `candidates` hold positions into `docs` (the documents that were signed); `uf` is indexed
    by document. A member already in the cluster of an earlier member is skipped: the pair is
    connected through confirmed pairs already.
    """
    comparisons = 0
    for bucket in candidates:
        heads: list[int] = []  # one document per distinct cluster seen in this bucket
        for position in bucket.tolist():
            doc = int(docs[position])
            root = uf.find(doc)
            if any(uf.find(h) == root for h in heads):
                continue
            ids = sets.doc(doc)
            joined = False
            for head in heads[:_MAX_HEADS_PER_MEMBER]:
                comparisons += 1
                if jaccard(ids, sets.doc(head)) >= threshold:
                    uf.union(doc, head)
                    joined = True
                    break
            if not joined:
                heads.append(doc)
    return comparisons
