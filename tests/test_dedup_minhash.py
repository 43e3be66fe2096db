"""Signatures equal datasketch's bit for bit; the vectorised SHA-1 equals hashlib; LSH bands
are datasketch's."""

from __future__ import annotations

import hashlib
import random

import numpy as np
import pytest
from datasketch import MinHash, MinHashLSH

from dedup import accel
from dedup.lsh import band_params, buckets
from dedup.minhash import minhash_shingles, minhash_texts, minhash_tokens, signatures
from dedup.normalize import code_tokens
from dedup.sha1 import sha1_ranges
from dedup.shingles import build_shingle_sets, hash_ranges, shingle_bytes
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


_HAS_SHA_EXTENSIONS = accel.SHA_EXTENSIONS


@pytest.fixture(params=["sha-extensions", "vector-lanes", "numpy"])
def kernels(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with each SHA-1 path: the numba kernel on the CPU's SHA extensions, the numba
    kernel on vector lanes, and the numpy fallback."""
    if request.param == "numpy":
        monkeypatch.setattr(accel, "AVAILABLE", False)
        return "numpy"
    if not accel.AVAILABLE:
        pytest.skip("numba is not installed: only the numpy fallback can run")
    if request.param == "sha-extensions" and not _HAS_SHA_EXTENSIONS:
        pytest.skip("no x86 SHA extensions here (or NUMBA_CPU_NAME is set): the lanes kernel runs instead")
    monkeypatch.setattr(accel, "SHA_EXTENSIONS", request.param == "sha-extensions")
    return "compiled"


@pytest.mark.parametrize("scheme", ["affine32", "legacy"])
@pytest.mark.parametrize(
    ("seed", "num_perm", "ngram"), [(1, 128, 5), (7, 64, 3), (42, 256, 5), (3, 1, 1), (1234, 200, 8)]
)
def test_signatures_equal_datasketch(kernels: str, scheme: str, seed: int, num_perm: int, ngram: int) -> None:
    sets = build_shingle_sets(DOCS, ngram)
    ours = signatures(sets, num_perm, seed, scheme)
    tokens = [code_tokens(code) for code in DOCS]
    assert np.array_equal(minhash_tokens(tokens, ngram, num_perm, seed, scheme), ours)
    for i, code in enumerate(DOCS):
        reference = MinHash(num_perm=num_perm, seed=seed, scheme=scheme)
        reference.update_batch(sorted(shingle_bytes(code, ngram)))
        assert ours[i].dtype == reference.hashvalues.dtype
        assert np.array_equal(ours[i], reference.hashvalues), f"doc {i}"


@pytest.mark.parametrize("scheme", ["affine32", "legacy"])
def test_signatures_from_shingle_bytes_equal_datasketch(kernels: str, scheme: str) -> None:
    """Callers with their own shingles: documents of bytes (repeats, empty shingles, empty and
    long documents), in several batches, each row as datasketch's update_batch gives it."""
    rng = random.Random(11)
    vocabulary = [bytes(rng.randrange(32, 127) for _ in range(rng.randrange(0, 90))) for _ in range(300)]
    docs = [[rng.choice(vocabulary) for _ in range(rng.randrange(0, 40))] for _ in range(120)]
    docs[3] = []
    ours = minhash_shingles(docs, 64, 5, scheme, batch_docs=50)
    assert ours.shape == (120, 64)
    for doc, row in zip(docs, ours, strict=True):
        reference = MinHash(num_perm=64, seed=5, scheme=scheme)
        if doc:
            reference.update_batch(doc)
        assert np.array_equal(row, reference.hashvalues)
    assert minhash_shingles([], 64).shape == (0, 64)


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


def test_sha1_equals_hashlib_on_every_block_boundary(kernels: str) -> None:
    """Lengths at each edge: of a word, of the lanes kernel's half-filled blocks (31, 32), of a
    block with its marker and length (55, 56), of two blocks; the last message ends the buffer.
    A whole lane group of the lanes kernel (64) has each length alone; on the SHA extensions,
    groups of four one-block messages take each length alone and beside its neighbours."""
    rng = random.Random(5)
    lengths = [0, 1, 3, 4, 5, 7, 8, 9, 27, 28, 31, 32, 33]  # a word's edges; half a block's
    lengths += [54, 55, 56, 57, 63, 64, 65, 118, 119, 120, 200, 1000]  # one block's, two blocks'
    messages = [rng.randbytes(n) for n in lengths for _ in range(70)]
    buf = np.frombuffer(b"".join(messages), dtype=np.uint8)
    sizes = np.array([len(m) for m in messages])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    expected = [int.from_bytes(hashlib.sha1(m).digest()[:4], "little") for m in messages]
    fingerprints = [int.from_bytes(hashlib.sha1(m).digest()[4:12], "big") for m in messages]
    fps, h32 = hash_ranges(buf, starts, sizes)
    assert h32.tolist() == expected and fps.tolist() == fingerprints
    if kernels == "numpy":
        state = sha1_ranges(buf, starts, sizes)
        for row, message in zip(state, messages, strict=True):
            assert row.astype(">u4").tobytes() == hashlib.sha1(message).digest()


def test_sha1_equals_hashlib_across_lane_groups_of_mixed_lengths(kernels: str) -> None:
    """Hundreds of messages of every length up to two blocks, interleaved: several lane groups of
    the compiled kernel, each lane masked at its own length, reordered short ones first and
    two-block ones last."""
    rng = random.Random(9)
    messages = [bytes(rng.randrange(1, 256) for _ in range(rng.randrange(0, 130))) for _ in range(700)]
    buf = np.frombuffer(b"".join(messages), dtype=np.uint8)
    sizes = np.array([len(m) for m in messages])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    fps, h32 = hash_ranges(buf, starts, sizes)
    assert h32.tolist() == [int.from_bytes(hashlib.sha1(m).digest()[:4], "little") for m in messages]
    assert fps.tolist() == [int.from_bytes(hashlib.sha1(m).digest()[4:12], "big") for m in messages]


@pytest.mark.parametrize("one_block", range(9))
def test_sha1_equals_hashlib_whatever_the_count_of_one_block_messages(kernels: str, one_block: int) -> None:
    """The SHA extensions take one-block messages four at a time and the rest one by one: each
    remainder of the one-block count, with longer messages (56, 64, 130 bytes) among them."""
    rng = random.Random(one_block)
    lengths = [rng.randrange(0, 56) for _ in range(one_block)] + [56, 130, 64]
    messages = [rng.randbytes(n) for n in rng.sample(lengths, len(lengths))]
    buf = np.frombuffer(b"".join(messages), dtype=np.uint8)
    sizes = np.array([len(m) for m in messages])
    _, h32 = hash_ranges(buf, np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    assert h32.tolist() == [int.from_bytes(hashlib.sha1(m).digest()[:4], "little") for m in messages]


@pytest.mark.skipif(not accel.AVAILABLE, reason="the compiled byte helpers need numba")
def test_eight_byte_compare_and_token_hash_see_exactly_their_bytes() -> None:
    """The interning's exact check (same_bytes) and its token hash read eight bytes a step: at
    every length, a difference in any byte of the range counts and one just past it does not."""
    rng = random.Random(21)
    text = rng.randbytes(40)
    for length in range(34):
        for at in range(length + 2):  # each byte of the range, and the two after it
            other = bytearray(text)
            other[at] ^= 0x5A
            buf = np.frombuffer(text + bytes(other) + bytes(8), dtype=np.uint8)
            inside = at < length
            assert accel.same_bytes(buf, 0, 40, length) is not inside
            assert (accel.token_hash(buf, 0, length) != accel.token_hash(buf, 40, length)) is inside


@pytest.mark.parametrize(("threshold", "num_perm"), [(0.7, 128), (0.5, 64), (0.9, 256)])
def test_band_parameters_are_datasketchs(threshold: float, num_perm: int) -> None:
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    assert band_params(threshold, num_perm) == (lsh.b, lsh.r)


def test_buckets_group_identical_bands_only() -> None:
    sig = np.array([[1, 2, 3, 4], [1, 2, 9, 9], [7, 7, 3, 4], [5, 5, 5, 5]], dtype=np.uint32)
    found = sorted(sorted(b.tolist()) for b in buckets(sig, bands=2, rows=2))
    assert found == [[0, 1], [0, 2]]


def test_many_documents_mixing_short_and_long_shingles_equal_datasketch(kernels: str) -> None:
    """A batch of many documents through one compiled call: tokens that share their first four
    bytes or differ only in length (the token table compares four bytes a step), repeated
    shingles, and string literals long enough that a shingle needs a second SHA-1 block (those
    are hashed after the one-block ones and must come back to their own documents)."""
    rng = random.Random(14)
    names = [
        "abcd",
        "abce",
        "abcde",
        "abcdf",
        "abcdefgh",
        "abcdefghi",
        "x",
        "xy",
        "Data",
        "DataCopy",
        "DataCopyPad",
    ]
    literal = '"' + "long literal " * 4 + '"'
    pieces = [*names, "(", ")", ";", "<<", "0x1f", "42", literal, "'c'"]
    docs = [" ".join(rng.choice(pieces) for _ in range(rng.randrange(0, 120))) for _ in range(300)]
    docs += [docs[3] + " tail", "abcd", ""]
    ours = minhash_texts(docs, 5, 64, seed=3)
    for i, code in enumerate(docs):
        reference = MinHash(num_perm=64, seed=3)
        reference.update_batch(sorted(shingle_bytes(code, 5)))
        assert np.array_equal(ours[i], reference.hashvalues), f"doc {i}"
