"""Tokens -> shingles -> hashes: documents as sets of hashed token n-grams.

- tokens: `dedup.normalize.tokenize` (comments removed, C++ tokens; optionally identifiers
  abstracted);
- shingles: n consecutive tokens joined by one space, as UTF-8 bytes, exactly what a datasketch
  user would pass to `MinHash.update`; a document shorter than n tokens is one shingle;
- hashes: one SHA-1 (hashlib) per shingle. The first eight digest bytes, read little-endian,
  are the shingle's 64-bit fingerprint; its low 32 bits are datasketch's `sha1_hash32`, the
  input of the MinHash permutations (dedup.minhash). Exact Jaccard and containment are computed
  on fingerprints: two different shingles share one with probability about 2^-64 per pair.

A document is the sorted array of its distinct fingerprints, all documents in one CSR structure
(`ShingleSets`). Documents are processed in batches: each batch's shingles are byte ranges of
one buffer, found with numpy, and the only per-shingle Python step is the SHA-1 call.

A probe of a large side against a small one (`audit`: training rows against a benchmark) needs
of each document only the shingles the small side has, and how many distinct shingles it has
in all (the Jaccard union). `build_shingle_sets(..., vocabulary=)` keeps just those: the other
shingles are counted, never hashed, which was two thirds of an audit's shingling time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from dedup.normalize import tokenize

_BATCH_DOCS = 512
_BATCH_TOKENS = 1 << 16
_NEWLINE = ord("\n")  # tokens never contain one: it separates tokens in a batch's buffer


def shingle_strings(tokens: list[str], ngram: int) -> set[str]:
    """Distinct n-grams of `tokens`; a document shorter than n tokens is one shingle."""
    if len(tokens) < ngram:
        return {" ".join(tokens)} if tokens else set()
    return set(map(" ".join, zip(*(tokens[i:] for i in range(ngram)), strict=False)))


@dataclass(slots=True)
class ShingleSets:
    """Documents as sorted distinct shingle fingerprints (`fps[indptr[i]:indptr[i+1]]`)."""

    indptr: np.ndarray  # int64, n_docs + 1
    fps: np.ndarray  # uint64 fingerprints, sorted within each document
    text_hashes: list[str]  # sha1 of the document's tokens joined by newlines ("" if none)
    # Distinct shingles per document when `fps` holds only those of a vocabulary (a probe);
    # None when `fps` holds them all.
    total: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.indptr) - 1

    @property
    def h32(self) -> np.ndarray:
        """datasketch's sha1_hash32 of the same shingles: the fingerprints' low 32 bits."""
        return self.fps.astype(np.uint32)

    def doc(self, i: int) -> np.ndarray:
        """The fingerprints held of document i (of a probe: those in its vocabulary)."""
        return self.fps[self.indptr[i] : self.indptr[i + 1]]

    def sizes(self) -> np.ndarray:
        """Distinct shingles per document."""
        return self.entries() if self.total is None else self.total

    def entries(self) -> np.ndarray:
        """Fingerprints held per document."""
        return np.diff(self.indptr)

    def doc_index(self) -> np.ndarray:
        """For every entry of `fps`, the document it belongs to."""
        return np.repeat(np.arange(len(self), dtype=np.int64), self.entries())

    def gather(self, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Entry positions of several documents concatenated, and for each its position in `docs`."""
        starts = self.indptr[docs]
        lengths = self.indptr[docs + 1] - starts
        offsets = np.repeat(starts - indptr_of(lengths)[:-1], lengths)
        owner = np.repeat(np.arange(len(docs), dtype=np.int64), lengths)
        return offsets + np.arange(int(lengths.sum()), dtype=np.int64), owner


def indptr_of(sizes: Sequence[int] | np.ndarray) -> np.ndarray:
    """Where each of consecutive segments of these sizes starts, then their total (int64, one
    more entry than segments): the CSR offsets every document-by-document array here uses."""
    indptr = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(np.asarray(sizes, dtype=np.int64), out=indptr[1:])
    return indptr


def concat_sets(parts: Sequence[ShingleSets]) -> ShingleSets:
    """The documents of several ShingleSets one after the other (batches or shards, in order)."""
    none = np.zeros(0, dtype=np.int64)
    probed = any(p.total is not None for p in parts)
    return ShingleSets(
        indptr_of(np.concatenate([none, *(p.entries() for p in parts)])),
        np.concatenate([np.zeros(0, dtype=np.uint64), *(p.fps for p in parts)]),
        [h for p in parts for h in p.text_hashes],
        np.concatenate([none, *(p.sizes() for p in parts)]) if probed else None,
    )


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact Jaccard similarity of two sorted distinct fingerprint arrays."""
    if len(a) == 0 and len(b) == 0:
        return 0.0
    common = len(np.intersect1d(a, b, assume_unique=True))
    return common / (len(a) + len(b) - common)


def fingerprints(shingles: Iterable[bytes]) -> np.ndarray:
    """The 64-bit fingerprint of each shingle: the first eight bytes of its SHA-1 digest, read
    little-endian (so that its low 32 bits are datasketch's sha1_hash32)."""
    sha1 = hashlib.sha1
    digests = b"".join([sha1(shingle).digest()[:8] for shingle in shingles])
    return np.frombuffer(digests, dtype="<u8").astype(np.uint64)


def distinct_sets(
    fps: np.ndarray, doc_of: np.ndarray, docs: int, text_hashes: list[str], total: np.ndarray | None = None
) -> ShingleSets:
    """ShingleSets of `docs` documents from the fingerprints of their shingles (`doc_of`: the
    document of each, any order, repeats allowed): sorted and deduplicated per document."""
    order = np.lexsort((fps, doc_of))
    fps, doc_of = fps[order], doc_of[order]
    keep = np.ones(len(fps), dtype=bool)
    keep[1:] = (fps[1:] != fps[:-1]) | (doc_of[1:] != doc_of[:-1])
    return ShingleSets(indptr_of(np.bincount(doc_of[keep], minlength=docs)), fps[keep], text_hashes, total)


@dataclass(slots=True)
class Vocabulary:
    """The distinct shingles of a small side (a benchmark), each with its fingerprint."""

    slots: dict[bytes, int]  # shingle -> its position in fps
    fps: np.ndarray  # uint64


def _shingle_ranges(token_counts: np.ndarray, ngram: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every shingle of a batch: its document, first token and last token (batch-wide
    token numbers, documents one after the other)."""
    per_doc = np.where(token_counts >= ngram, token_counts - ngram + 1, np.minimum(token_counts, 1))
    doc = np.repeat(np.arange(len(token_counts)), per_doc)
    first = indptr_of(token_counts)[doc] + np.arange(len(doc)) - indptr_of(per_doc)[doc]
    last = first + np.minimum(token_counts, ngram)[doc] - 1
    return doc, first, last


def _batch_shingles(
    token_lists: list[list[str]], ngram: int
) -> tuple[dict[bytes, int], np.ndarray, np.ndarray, list[str]]:
    """The shingles of one batch of tokenised documents: each distinct one numbered in order of
    first sight, then the number and the document of every shingle, and each document's
    text hash.

    The documents' tokens go into one buffer, one token per line. A shingle is the byte range
    from its first token's start to its last token's end, the newlines between read as spaces."""
    joined = ["\n".join(tokens).encode("utf-8", "surrogatepass") for tokens in token_lists]
    text_hashes = [hashlib.sha1(text).hexdigest() if text else "" for text in joined]
    buffer = b"\n".join(text for text in joined if text)
    newlines = np.flatnonzero(np.frombuffer(buffer, dtype=np.uint8) == _NEWLINE)
    token_start = np.concatenate([[0], newlines + 1])
    token_end = np.concatenate([newlines, [len(buffer)]])
    doc, first, last = _shingle_ranges(np.array([len(t) for t in token_lists], dtype=np.int64), ngram)
    spaced = buffer.replace(b"\n", b" ")
    distinct: dict[bytes, int] = {}
    numbers = [
        distinct.setdefault(spaced[start:end], len(distinct))
        for start, end in zip(token_start[first].tolist(), token_end[last].tolist(), strict=True)
    ]
    return distinct, np.array(numbers, dtype=np.int64), doc, text_hashes


def _batch_sets(token_lists: list[list[str]], ngram: int, vocabulary: Vocabulary | None) -> ShingleSets:
    """Shingle and hash one batch: each distinct shingle of the batch is hashed once (code
    repeats many of its shingles); against a vocabulary, looked up instead of hashed."""
    distinct, numbers, doc, text_hashes = _batch_shingles(token_lists, ngram)
    if vocabulary is None:
        return distinct_sets(fingerprints(distinct)[numbers], doc, len(token_lists), text_hashes)
    pairs = _distinct_sorted((doc << 32) | numbers)  # each document's distinct shingles
    owner, number = pairs >> 32, pairs & 0xFFFFFFFF
    total = np.bincount(owner, minlength=len(token_lists))
    slot = np.full(len(distinct), -1, dtype=np.int64)
    for shingle in distinct.keys() & vocabulary.slots.keys():  # C speed, over the smaller side
        slot[distinct[shingle]] = vocabulary.slots[shingle]
    slot = slot[number]
    known = slot >= 0
    return distinct_sets(vocabulary.fps[slot[known]], owner[known], len(token_lists), text_hashes, total)


def _distinct_sorted(values: np.ndarray) -> np.ndarray:
    """np.unique of an int64 array by sort and compare (np.unique was 10x slower here)."""
    values = np.sort(values)
    keep = np.ones(len(values), dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    return values[keep]


def batched(token_lists: Iterable[list[str]]) -> Iterator[list[list[str]]]:
    """Tokenised documents in batches of up to _BATCH_DOCS documents and _BATCH_TOKENS tokens
    (a longer document alone), read as they are needed: a batch's Python objects (its tokens,
    its shingles) are what stays in memory at once."""
    batch: list[list[str]] = []
    tokens = 0
    for doc in token_lists:
        if batch and (len(batch) == _BATCH_DOCS or tokens + len(doc) > _BATCH_TOKENS):
            yield batch
            batch, tokens = [], 0
        batch.append(doc)
        tokens += len(doc)
    if batch:
        yield batch


def sets_from_tokens(
    token_lists: Iterable[list[str]], ngram: int = 5, vocabulary: Vocabulary | None = None
) -> ShingleSets:
    """The shingle sets of documents already tokenised, in input order."""
    return concat_sets([_batch_sets(batch, ngram, vocabulary) for batch in batched(token_lists)])


def build_shingle_sets(
    codes: Iterable[str], ngram: int = 5, abstract: bool = False, vocabulary: Vocabulary | None = None
) -> ShingleSets:
    """Tokenise, shingle and hash every document (see the module docstring); with a vocabulary,
    a probe: only the shingles it holds are kept, and every document's distinct count."""
    return sets_from_tokens((tokenize(code, abstract) for code in codes), ngram, vocabulary)


def vocabulary_of(codes: Iterable[str], ngram: int = 5, abstract: bool = False) -> Vocabulary:
    """Every distinct shingle of these documents (the small side of a probe), fingerprinted."""
    slots: dict[bytes, int] = {}
    for batch in batched(tokenize(code, abstract) for code in codes):
        for shingle in _batch_shingles(batch, ngram)[0]:
            slots.setdefault(shingle, len(slots))
    return Vocabulary(slots, fingerprints(slots))
