"""Token n-gram shingles of many documents, hashed in vectorised batches.

A shingle is n consecutive tokens joined by one space, encoded as UTF-8 (`shingle_bytes`):
exactly the bytes a datasketch user would pass to `MinHash.update`. Each document's tokens
are laid out in one byte buffer, the shingles are byte ranges of it, and all of them are
hashed with SHA-1 at once (compiled in dedup.accel, or vectorised numpy in dedup.sha1 when
numba is absent); batches of documents run on a thread pool. Each shingle keeps two numbers
from its digest:
- `h32`, datasketch's `sha1_hash32`, the input of the MinHash permutations;
- `fp`, a 64-bit fingerprint (other digest bytes) that stands for the shingle in set
  operations: exact Jaccard and containment are computed on these sets. Two different
  shingles share a fingerprint with probability about 2^-64 per pair.
A document is the sorted array of its distinct fingerprints, stored CSR-style.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from dedup import accel
from dedup.lex import LexBuffers, lex_tokens, token_index
from dedup.normalize import code_tokens
from dedup.sha1 import fingerprint64, hash32, sha1_ranges

_BATCH_DOCS = 512
_T = TypeVar("_T")
_Batch = tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]
_NO_FPS, _NO_H32 = np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint32)
_NEWLINE, _SPACE = 10, 32  # tokens never contain a newline: it marks token boundaries
_THREAD = threading.local()


def shingle_strings(tokens: list[str], ngram: int) -> set[str]:
    """Distinct n-grams of `tokens`; a document shorter than n tokens is one shingle."""
    if len(tokens) < ngram:
        return {" ".join(tokens)} if tokens else set()
    return set(map(" ".join, zip(*(tokens[i:] for i in range(ngram)), strict=False)))


def shingle_bytes(code: str, ngram: int = 5, abstract: bool = False) -> set[bytes]:
    """The shingles of one document as bytes (what a datasketch user would feed `update_batch`)."""
    return {s.encode("utf-8", "surrogatepass") for s in shingle_strings(code_tokens(code, abstract), ngram)}


@dataclass(slots=True)
class ShingleSets:
    """Documents as sorted distinct shingle fingerprints (`fps[indptr[i]:indptr[i+1]]`)."""

    indptr: np.ndarray  # int64, n_docs + 1
    fps: np.ndarray  # uint64 fingerprints, sorted within each document
    h32: np.ndarray  # uint32 sha1_hash32 of the same shingles, same order
    text_hashes: list[str]  # sha1 of the normalised token stream ("" for an empty document)

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def doc(self, i: int) -> np.ndarray:
        return self.fps[self.indptr[i] : self.indptr[i + 1]]

    def sizes(self) -> np.ndarray:
        return np.diff(self.indptr)

    def doc_index(self) -> np.ndarray:
        """For every entry of `fps`, the document it belongs to."""
        return np.repeat(np.arange(len(self), dtype=np.int64), self.sizes())

    def gather(self, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Entry positions of several documents concatenated, and for each its position in `docs`."""
        starts = self.indptr[docs]
        lengths = self.indptr[docs + 1] - starts
        total = int(lengths.sum())
        offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
        owner = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
        return offsets + np.arange(total, dtype=np.int64), owner

    def subset(self, docs: np.ndarray) -> ShingleSets:
        positions, _ = self.gather(docs)
        return ShingleSets(
            indptr_of(self.sizes()[docs]),
            self.fps[positions],
            self.h32[positions],
            [self.text_hashes[i] for i in docs],
        )


def indptr_of(sizes: Sequence[int] | np.ndarray) -> np.ndarray:
    """Where each of consecutive segments of these sizes starts, then their total (int64, one
    more entry than segments): the CSR offsets every document-by-document array here uses."""
    indptr = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(np.asarray(sizes, dtype=np.int64), out=indptr[1:])
    return indptr


def concat_sets(parts: Sequence[ShingleSets]) -> ShingleSets:
    """The documents of several ShingleSets one after the other (shards back in order)."""
    sizes = np.concatenate([np.zeros(0, dtype=np.int64), *(p.sizes() for p in parts)])
    return ShingleSets(
        indptr_of(sizes),
        np.concatenate([np.zeros(0, dtype=np.uint64), *(p.fps for p in parts)]),
        np.concatenate([np.zeros(0, dtype=np.uint32), *(p.h32 for p in parts)]),
        [h for p in parts for h in p.text_hashes],
    )


def hash_ranges(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(64-bit fingerprints, sha1_hash32) of byte ranges: compiled when numba is there, else numpy."""
    if accel.AVAILABLE:
        h32, fps = accel.sha1_hash_ranges(buf, starts, lengths)
        return fps, h32
    state = sha1_ranges(buf, starts, lengths)
    return fingerprint64(state), hash32(state)


def _ranges(token_counts: np.ndarray, ngram: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every shingle of the batch: its document, first token and last token (global indices)."""
    per_doc = accel.shingle_counts(token_counts, ngram)
    first_token = np.concatenate([[0], np.cumsum(token_counts)[:-1]])
    total = int(per_doc.sum())
    doc = np.repeat(np.arange(len(token_counts)), per_doc)
    shingle_start = np.concatenate([[0], np.cumsum(per_doc)[:-1]])
    first = first_token[doc] + np.arange(total) - shingle_start[doc]
    last = first + np.minimum(token_counts, ngram)[doc] - 1
    return doc, first, last


def _hash_batch(
    token_lists: Sequence[list[str]], ngram: int, distinct: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """(fps, h32, shingles per document, text hashes) of a batch of tokenised documents.

    With `distinct=False` a document keeps repeated shingles, unsorted: enough for MinHash
    (a minimum does not change when a value repeats) and cheaper, but not for set operations.
    """
    encoded = ["\n".join(tokens).encode("utf-8", "surrogatepass") for tokens in token_lists]
    # The exact-duplicate key; not needed when only signatures are wanted.
    text_hashes = (
        [hashlib.sha1(b).hexdigest() if b else "" for b in encoded] if distinct else [""] * len(encoded)
    )
    counts = np.array([len(t) for t in token_lists], dtype=np.int64)
    buf = np.frombuffer(b"\n".join(b for b in encoded if b), dtype=np.uint8).copy()
    return (*_hash_joined(buf, counts, ngram, distinct), text_hashes)


def _lex_buffers() -> LexBuffers:
    """This thread's lexer buffers: batches on one thread reuse them (see LexBuffers); they go
    with the thread (the pool's threads end with the pool)."""
    if not hasattr(_THREAD, "lex_buffers"):
        _THREAD.lex_buffers = LexBuffers()
    return _THREAD.lex_buffers


def _hash_texts(codes: Sequence[str], ngram: int, distinct: bool = True) -> _Batch:
    """Like _hash_batch, from source text through the compiled lexer (dedup.lex)."""
    lexed = lex_tokens(list(codes), _lex_buffers())
    joined = lexed.joined
    text_hashes = (
        [hashlib.sha1(joined[a:b].tobytes()).hexdigest() if b > a else "" for a, b in lexed.spans.tolist()]
        if distinct
        else [""] * len(lexed.counts)
    )
    tokens = (lexed.token_starts, lexed.token_hashes)
    return (*_hash_joined(joined, lexed.counts, ngram, distinct, tokens), text_hashes)


def _hash_joined(
    buf: np.ndarray,
    counts: np.ndarray,
    ngram: int,
    distinct: bool,
    tokens: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shingle, hash and (with `distinct`) sort and deduplicate the documents in `buf`: their
    tokens joined by newlines, non-empty documents separated by one newline (may be changed);
    `tokens`: (token starts, token hashes) in `buf`, when the lexer that wrote it has them."""
    if len(buf) == 0:
        return np.zeros(0, np.uint64), np.zeros(0, np.uint32), np.zeros(len(counts), np.int64)
    present = counts > 0
    if accel.AVAILABLE:
        starts, hashes = tokens if tokens is not None else token_index(buf)
        h32, fps, shingles = accel.hash_interned(buf, counts[present], ngram, starts, hashes)
        per_doc = np.zeros(len(counts), dtype=np.int64)
        if distinct:
            fps, h32, shingles = accel.sort_unique_segments(fps, h32, indptr_of(shingles))
        per_doc[present] = shingles
        return fps, h32, per_doc
    boundaries = np.flatnonzero(buf == _NEWLINE)
    token_start = np.concatenate([[0], boundaries + 1])
    token_end = np.concatenate([boundaries, [len(buf)]])
    buf[boundaries] = _SPACE  # shingles are space-joined; no shingle spans two documents
    doc, first, last = _ranges(counts[present], ngram)
    fps, h32 = hash_ranges(buf, token_start[first], token_end[last] - token_start[first])
    if not distinct:
        per_doc = np.zeros(len(counts), dtype=np.int64)
        per_doc[present] = np.bincount(doc, minlength=int(present.sum()))
        return fps, h32, per_doc
    # Sort by fingerprint, then stably by document (a radix sort on small integers): cheaper
    # than a two-key lexsort, same result for deduplication.
    by_fp = np.argsort(fps)
    order = by_fp[np.argsort(doc.astype(np.uint32)[by_fp], kind="stable")]
    fps, h32, doc = fps[order], h32[order], doc[order]
    keep = np.ones(len(fps), dtype=bool)
    keep[1:] = (fps[1:] != fps[:-1]) | (doc[1:] != doc[:-1])
    per_doc = np.zeros(len(counts), dtype=np.int64)
    per_doc[present] = np.bincount(doc[keep], minlength=int(present.sum()))
    return fps[keep], h32[keep], per_doc


def batched(items: Iterable[_T], size: int = _BATCH_DOCS) -> Iterator[list[_T]]:
    """`items` in lists of `size` (the last may be shorter), read as they are needed; no items
    make one empty batch, so that every caller has one result to build on."""
    batch: list[_T] = []
    made = False
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch, made = [], True
    if batch or not made:
        yield batch


def _assemble(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]]) -> ShingleSets:
    """Concatenate batch results, releasing each batch once copied (peak: the result plus one batch)."""
    indptr = indptr_of(np.concatenate([p[2] for p in parts]))
    fps = np.empty(int(indptr[-1]), dtype=np.uint64)
    h32 = np.empty(int(indptr[-1]), dtype=np.uint32)
    text_hashes: list[str] = []
    at = 0
    for k in range(len(parts)):
        part_fps, part_h32, _, part_hashes = parts[k]
        fps[at : at + len(part_fps)] = part_fps
        h32[at : at + len(part_h32)] = part_h32
        at += len(part_fps)
        text_hashes.extend(part_hashes)
        parts[k] = (_NO_FPS, _NO_H32, _NO_FPS, [])  # drop the batch's arrays now
        del part_fps, part_h32
    return ShingleSets(indptr, fps, h32, text_hashes)


def _workers(workers: int | None) -> int:
    return workers or min(2, os.cpu_count() or 1)


def build_shingle_sets(
    codes: Iterable[str], ngram: int = 5, abstract: bool = False, workers: int | None = None
) -> ShingleSets:
    """Tokenise, shingle and hash every document; batches run on a thread pool (numpy releases
    the GIL, so one batch's hashing overlaps the next batch's tokenising)."""

    def work(batch: list[str]) -> _Batch:
        if accel.AVAILABLE and not abstract:
            return _hash_texts(batch, ngram)
        return _hash_batch([code_tokens(code, abstract) for code in batch], ngram)

    with ThreadPoolExecutor(max_workers=_workers(workers)) as pool:
        return _assemble(list(pool.map(work, batched(codes))))


def sets_from_tokens(
    token_lists: Iterable[list[str]], ngram: int = 5, workers: int | None = None, distinct: bool = True
) -> ShingleSets:
    """Like build_shingle_sets, from documents already tokenised (see _hash_batch for `distinct`)."""
    with ThreadPoolExecutor(max_workers=_workers(workers)) as pool:
        return _assemble(
            list(pool.map(lambda batch: _hash_batch(batch, ngram, distinct), batched(token_lists)))
        )


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact Jaccard similarity of two sorted distinct fingerprint arrays."""
    if len(a) == 0 and len(b) == 0:
        return 0.0
    common = len(np.intersect1d(a, b, assume_unique=True))
    return common / (len(a) + len(b) - common)


def map_text_batches(
    codes: Iterable[str], ngram: int, fn: Callable[[np.ndarray, np.ndarray], _T], workers: int | None = None
) -> list[_T]:
    """fn(sha1_hash32 values, shingles per document) of each batch of documents, hashed from
    source text with repeated shingles kept (enough for MinHash), on the thread pool, in order.
    A batch's hashes are used while they are in cache, and never gathered for the whole corpus.
    Needs the compiled kernels (accel.AVAILABLE)."""

    def work(batch: list[str]) -> _T:
        _, h32, per_doc, _ = _hash_texts(batch, ngram, distinct=False)
        return fn(h32, per_doc)

    with ThreadPoolExecutor(max_workers=_workers(workers)) as pool:
        return list(pool.map(work, batched(codes)))


def sets_from_texts(
    codes: Iterable[str], ngram: int = 5, workers: int | None = None, distinct: bool = True
) -> ShingleSets:
    """Like build_shingle_sets (no identifier abstraction), with the choice of `distinct`."""
    if not accel.AVAILABLE:
        return sets_from_tokens((code_tokens(c) for c in codes), ngram, workers, distinct)
    with ThreadPoolExecutor(max_workers=_workers(workers)) as pool:
        return _assemble(list(pool.map(lambda batch: _hash_texts(batch, ngram, distinct), batched(codes))))
