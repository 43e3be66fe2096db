"""Signatures equal datasketch's bit for bit; fingerprints are SHA-1's bytes; shingle sets hold
each document's distinct shingles; LSH bands are datasketch's; the tokenizer's C++ rules."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest
from datasketch import MinHash, MinHashLSH
from datasketch.hashfunc import sha1_hash32

from dedup.lsh import band_params, buckets
from dedup.minhash import minhash_tokens, signatures
from dedup.normalize import tokenize
from dedup.shingles import build_shingle_sets, distinct_sets, fingerprints, shingle_strings
from tests.conftest import EXAMPLES
from tests.test_dedup_helpers import LICENCE, elementwise_kernel, unrelated_kernel

DOCS = [
    elementwise_kernel(),
    elementwise_kernel("Mul", extra="    int32_t pad = 0x1f'ff; // tail\n"),
    LICENCE + unrelated_kernel(),
    "const char *s = \"naïve // not a comment\"; char c = ' ';",  # non-ASCII, literal with spaces
    "int",  # shorter than one shingle
    "",  # empty
    "/* only a comment */",
]


def shingle_bytes(code: str, ngram: int = 5) -> set[bytes]:
    """The shingles of one document as a datasketch user would feed them to `update_batch`."""
    return {s.encode("utf-8", "surrogatepass") for s in shingle_strings(tokenize(code), ngram)}


def datasketch_row(
    code: str, ngram: int, num_perm: int, seed: int = 1, scheme: str = "affine32"
) -> np.ndarray:
    reference = MinHash(num_perm=num_perm, seed=seed, scheme=scheme)
    reference.update_batch(sorted(shingle_bytes(code, ngram)))
    return reference.hashvalues


def example_codes(pattern: str = "*.cpp") -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob(pattern))]


@pytest.mark.parametrize("scheme", ["affine32", "legacy"])
@pytest.mark.parametrize(
    ("seed", "num_perm", "ngram"), [(1, 128, 5), (7, 64, 3), (42, 256, 5), (3, 1, 1), (1234, 200, 8)]
)
def test_signatures_equal_datasketch(scheme: str, seed: int, num_perm: int, ngram: int) -> None:
    sets = build_shingle_sets(DOCS, ngram)
    ours = signatures(sets, num_perm, seed, scheme)
    tokens = [tokenize(code) for code in DOCS]
    assert np.array_equal(minhash_tokens(tokens, ngram, num_perm, seed, scheme), ours)
    for i, code in enumerate(DOCS):
        reference = datasketch_row(code, ngram, num_perm, seed, scheme)
        assert ours[i].dtype == reference.dtype
        assert np.array_equal(ours[i], reference), f"doc {i}"


@pytest.mark.parametrize("scheme", ["affine32", "legacy"])
def test_signatures_from_shingle_bytes_equal_datasketch(scheme: str) -> None:
    """Callers with their own shingles: documents of bytes (repeats, empty shingles, empty and
    long documents, shingles longer than a SHA-1 block), each row as datasketch's update_batch
    gives it."""
    rng = random.Random(11)
    vocabulary = [bytes(rng.randrange(32, 127) for _ in range(rng.randrange(0, 90))) for _ in range(300)]
    docs = [[rng.choice(vocabulary) for _ in range(rng.randrange(0, 40))] for _ in range(120)]
    docs[3] = []
    flat = [shingle for doc in docs for shingle in doc]
    doc_of = np.repeat(np.arange(len(docs)), [len(doc) for doc in docs])
    ours = signatures(distinct_sets(fingerprints(flat), doc_of, len(docs), [""] * len(docs)), 64, 5, scheme)
    assert ours.shape == (120, 64)
    for doc, row in zip(docs, ours, strict=True):
        reference = MinHash(num_perm=64, seed=5, scheme=scheme)
        if doc:
            reference.update_batch(doc)
        assert np.array_equal(row, reference.hashvalues)


def test_signatures_interoperate_with_datasketch_lsh() -> None:
    sets = build_shingle_sets(DOCS[:3], 5)
    sig = signatures(sets)
    lsh = MinHashLSH(threshold=0.7, num_perm=128)
    for i in range(3):
        lsh.insert(str(i), MinHash(num_perm=128, hashvalues=sig[i], scheme="affine32"))
    probe = MinHash(num_perm=128)
    probe.update_batch(list(shingle_bytes(DOCS[0])))
    found = lsh.query(probe)
    assert "0" in found and "2" not in found  # itself (and its near copy "1"), not the unrelated one


def test_fingerprints_are_sha1_bytes_and_hold_datasketchs_hash() -> None:
    """A fingerprint is the first eight SHA-1 digest bytes read little-endian; its low 32 bits
    are datasketch's sha1_hash32 (the MinHash input), at every length of one and two blocks."""
    rng = random.Random(5)
    messages = [rng.randbytes(n) for n in [0, 1, 3, 4, 31, 55, 56, 63, 64, 65, 119, 120, 200, 1000]]
    fps = fingerprints(messages)
    assert fps.dtype == np.uint64
    assert fps.tolist() == [int.from_bytes(hashlib.sha1(m).digest()[:8], "little") for m in messages]
    assert (fps & np.uint64(0xFFFFFFFF)).tolist() == [sha1_hash32(m) for m in messages]


def test_shingle_sets_hold_each_documents_distinct_shingles_sorted() -> None:
    """Across several batches (more documents than one holds, long and empty ones): each
    document is exactly the sorted fingerprints of its distinct shingles, and its text hash is
    SHA-1 of its tokens (equal for token-identical documents)."""
    rng = random.Random(3)
    files = example_codes()
    codes = [rng.choice(files)[: rng.randrange(0, 4000)] for _ in range(1100)] + ["", "int", "/* c */"]
    codes += [codes[0] + "\n// only a comment more"]
    sets = build_shingle_sets(codes)
    assert len(sets) == len(codes)
    for i in [*rng.sample(range(len(codes)), 80), len(codes) - 4, len(codes) - 3, len(codes) - 1]:
        expected = np.sort(fingerprints(shingle_bytes(codes[i])))
        assert np.array_equal(sets.doc(i), expected), i
        tokens = "\n".join(tokenize(codes[i])).encode()
        assert sets.text_hashes[i] == (hashlib.sha1(tokens).hexdigest() if tokens else "")
    assert sets.text_hashes[-1] == sets.text_hashes[0] != ""


@pytest.mark.parametrize(("num_perm", "ngram"), [(128, 5), (64, 3), (16, 1)])
def test_signatures_from_example_files_equal_datasketch(num_perm: int, ngram: int) -> None:
    codes = [*example_codes()[:40], "int", "", "/* c */", "naïve = 1;"]
    ours = signatures(build_shingle_sets(codes, ngram), num_perm)
    for i, code in enumerate(codes):
        assert np.array_equal(ours[i], datasketch_row(code, ngram, num_perm)), i


@pytest.mark.parametrize("scheme", ["affine32", "legacy"])
def test_signatures_of_many_batches_equal_datasketch(scheme: str) -> None:
    """More documents than one batch of shingles or of documents: the rows come back in order,
    for both schemes; no documents, no rows."""
    rng = random.Random(12)
    files = example_codes()
    codes = [rng.choice(files)[: rng.randrange(0, 3000)] for _ in range(1200)]
    ours = signatures(build_shingle_sets(codes), 32, seed=9, scheme=scheme)
    assert ours.shape == (1200, 32)
    for i in rng.sample(range(1200), 60):
        assert np.array_equal(ours[i], datasketch_row(codes[i], 5, 32, 9, scheme)), i
    assert signatures(build_shingle_sets([]), 32).shape == (0, 32)


@pytest.mark.parametrize(("threshold", "num_perm"), [(0.7, 128), (0.5, 64), (0.9, 256)])
def test_band_parameters_are_datasketchs(threshold: float, num_perm: int) -> None:
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    assert band_params(threshold, num_perm) == (lsh.b, lsh.r)


def test_buckets_group_identical_bands_only() -> None:
    sig = np.array([[1, 2, 3, 4], [1, 2, 9, 9], [7, 7, 3, 4], [5, 5, 5, 5]], dtype=np.uint32)
    found = sorted(sorted(b.tolist()) for b in buckets(sig, bands=2, rows=2))
    assert found == [[0, 1], [0, 2]]


def test_many_documents_mixing_short_and_long_shingles_equal_datasketch() -> None:
    """Many documents, more than one batch: tokens that share prefixes or differ only in
    length, repeated shingles, and string literals long enough that a shingle needs a second
    SHA-1 block."""
    rng = random.Random(14)
    names = ["abcd", "abce", "abcde", "abcdf", "abcdefgh", "abcdefghi", "x", "xy", "Data", "DataCopy"]
    literal = '"' + "long literal " * 4 + '"'
    pieces = [*names, "(", ")", ";", "<<", "0x1f", "42", literal, "'c'"]
    docs = [" ".join(rng.choice(pieces) for _ in range(rng.randrange(0, 120))) for _ in range(700)]
    docs += [docs[3] + " tail", "abcd", ""]
    ours = signatures(build_shingle_sets(docs, 5), 64, seed=3)
    for i, code in enumerate(docs):
        assert np.array_equal(ours[i], datasketch_row(code, 5, 64, 3)), f"doc {i}"


def test_tokenizer_tricky_cases() -> None:
    """The C++ token rules: `//` inside a string is not a comment, an unclosed comment runs to
    the end, the longest operator wins, numbers keep their suffixes and separators (where the
    comment after a number with digit separators is a comment, not part of a character literal)."""
    cases = {
        "x = 1'000 // c '\ny": ["x", "=", "1'000", "y"],
        "n = 0xFF'FF; /* 'q' */ c = u8'/';": ["n", "=", "0xFF'FF", ";", "c", "=", "u8", "'/'", ";"],
        'a = "s // t"; // gone': ["a", "=", '"s // t"', ";"],
        "/* open": [],
        "p->*q <=> r": ["p", "->*", "q", "<=>", "r"],
        "a <<= b >> c ... ## d": ["a", "<<=", "b", ">>", "c", "...", "##", "d"],
        "x = 0x1p-3 + 1e+5f;": ["x", "=", "0x1p-3", "+", "1e+5f", ";"],
    }
    for code, tokens in cases.items():
        assert tokenize(code) == tokens, code


def test_abstraction_keeps_the_catalogs_names_and_only_those() -> None:
    """Kept: what the AscendC catalog declares (file-scope types such as MatmulConfig, IterateOrder
    and pipe_t included), keywords and namespaces; abstracted: the kernel's own names, even the
    conventional CopyIn/Process of a kernel class."""
    code = "MatmulConfig cfg = GetNormalConfig(IterateOrder::ORDER_M); pipe_t p; void CopyIn() { AscendC::Add(x, y); }"
    assert tokenize(code, abstract=True) == [
        "MatmulConfig", "$", "=", "GetNormalConfig", "(", "IterateOrder", "::", "ORDER_M", ")", ";",
        "pipe_t", "$", ";", "void", "$", "(", ")", "{", "AscendC", "::", "Add", "(", "$", ",", "$", ")", ";", "}",
    ]  # fmt: skip
