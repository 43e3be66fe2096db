"""The compiled lexer gives exactly `code_tokens` (regex) on awkward generated text and on every
example file, and signatures from source text equal datasketch's."""

from __future__ import annotations

import random

import numpy as np
import pytest
from datasketch import MinHash

from dedup import accel
from dedup.lex import LexBuffers, lex_batch, lex_tokens, token_starts_of
from dedup.minhash import minhash_texts, signatures
from dedup.normalize import code_tokens
from dedup.shingles import build_shingle_sets, sets_from_texts, sets_from_tokens, shingle_bytes
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.skipif(not accel.AVAILABLE, reason="the compiled lexer needs numba")

ALPHABET = [
    *"ab_Z09.eE+-pP'\"\\/\n *<>=:&|^%!#;{}()[]\t\x0b\x1c\x1f",
    *("中", "é", "//", "/*", "*/", "0x1p-3", "1e+5", "1'000'000", 'R"(', "\\\n", "->*", "<=>", "..."),
]


def lexed(codes: list[str]) -> list[list[str]]:
    joined, spans, counts = lex_batch(codes)
    docs = []
    for (a, b), n in zip(spans.tolist(), counts.tolist(), strict=True):
        text = joined[a:b].tobytes().decode("utf-8", "surrogatepass")
        docs.append(text.split("\n") if text else [])
        assert len(docs[-1]) == n
    expected = b"\n".join(b for b in ("\n".join(code_tokens(c)).encode() for c in codes) if b)
    assert joined.tobytes() == expected  # the layout the hashing stage reads
    return docs


def test_lexer_equals_regex_on_generated_text() -> None:
    rng = random.Random(5)
    for _ in range(200):
        codes = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 80))) for _ in range(30)]
        assert lexed(codes) == [code_tokens(c) for c in codes]


def test_lexer_equals_regex_on_runs_across_its_64_byte_blocks() -> None:
    """Runs of blanks and identifiers (which the lexer ends with its 64-byte class masks) of
    every length to 200 bytes, at every offset of a block, several blocks long, and at document
    ends, where the next document begins with the same class of byte."""
    rng = random.Random(12)
    blanks = " \t\n\x0b\x0c\r\x1c"
    word = "abcXYZ_0123456789"
    for length in range(1, 201):
        codes = []
        for _ in range(4):
            run = "".join(rng.choice(blanks) for _ in range(length))
            name = rng.choice("aZ_") + "".join(rng.choice(word) for _ in range(length - 1))
            lead = "x" * rng.randint(0, 63)
            codes += [lead + run + "y", lead + " " + name + "+", name, run, "1" + run]
        assert lexed(codes) == [code_tokens(c) for c in codes]


def test_lexer_equals_regex_where_specials_are_sparse() -> None:
    """Long runs without `/`, `"` or `'` (skipped eight bytes at a time by the comment mask),
    with comments and literals landing at every offset of an 8-byte word."""
    rng = random.Random(8)
    plain = ["alpha", " ", "  ", "beta_1", "(", ")", ";", "\n", "x", "+=", "42", "\t"]
    special = ["// note 'q' \n", '/* a "b" */', '"s // t"', "'c'", "/", '"', "'", "/*", "1'000"]
    for _ in range(150):
        codes = [
            "".join(
                rng.choice(special) if rng.random() < 0.04 else rng.choice(plain)
                for _ in range(rng.randint(0, 160))
            )
            for _ in range(rng.randint(1, 9))
        ]
        assert lexed(codes) == [code_tokens(c) for c in codes]


def test_lexer_equals_regex_on_example_files() -> None:
    files = sorted(p for p in EXAMPLES.rglob("*") if p.suffix in (".cpp", ".h", ".asc"))
    codes = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    assert len(codes) > 50
    assert lexed(codes) == [code_tokens(c) for c in codes]


def test_lexer_tricky_cases() -> None:
    cases = {
        "x = 1'000 // c '\ny": ["x", "=", "1'000", "/", "/", "c", "'", "y"],  # the mask pass saw a literal
        'a = "s // t"; // gone': ["a", "=", '"s // t"', ";"],
        "/* open": [],
        "p->*q <=> r": ["p", "->*", "q", "<=>", "r"],
    }
    for code, tokens in cases.items():
        assert code_tokens(code) == tokens, code
        assert lexed([code]) == [tokens], code


@pytest.mark.parametrize(("num_perm", "ngram"), [(128, 5), (64, 3), (16, 1)])
def test_signatures_from_text_equal_datasketch(num_perm: int, ngram: int) -> None:
    files = sorted(p for p in EXAMPLES.rglob("*.cpp"))[:40]
    codes = [p.read_text(encoding="utf-8") for p in files] + ["int", "", "/* c */", "naïve = 1;"]
    ours = minhash_texts(codes, ngram, num_perm)
    assert np.array_equal(ours, signatures(build_shingle_sets(codes, ngram), num_perm))
    for i, code in enumerate(codes):
        reference = MinHash(num_perm=num_perm)
        reference.update_batch(sorted(shingle_bytes(code, ngram)))
        assert np.array_equal(ours[i], reference.hashvalues), i


@pytest.mark.parametrize("scheme", ["affine32", "legacy"])
def test_signatures_from_text_batch_by_batch_equal_datasketch(scheme: str) -> None:
    """More documents than one batch, on two threads: each batch goes from text to its rows on
    its own, and the rows come back in order, for both schemes; no documents, no rows."""
    rng = random.Random(12)
    files = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob("*.cpp"))]
    codes = [rng.choice(files)[: rng.randrange(0, 3000)] for _ in range(1200)]
    ours = minhash_texts(codes, 5, 32, seed=9, scheme=scheme, workers=2)
    assert ours.shape == (1200, 32)
    for i in rng.sample(range(1200), 60):
        reference = MinHash(num_perm=32, seed=9, scheme=scheme)
        reference.update_batch(sorted(shingle_bytes(codes[i], 5)))
        assert np.array_equal(ours[i], reference.hashvalues), i
    assert minhash_texts([], num_perm=32).shape == (0, 32)


def test_exact_sets_from_text_equal_sets_from_tokens() -> None:
    codes = [p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.rglob("*.cpp"))] + ["", "int"]
    a = sets_from_texts(codes)
    b = sets_from_tokens([code_tokens(c) for c in codes])
    assert np.array_equal(a.indptr, b.indptr) and np.array_equal(a.fps, b.fps)
    assert np.array_equal(a.h32, b.h32) and a.text_hashes == b.text_hashes


def test_token_starts_from_the_lexer_equal_the_newlines() -> None:
    """lex_tokens records where each token starts and its hash while lexing (and from the
    newlines when a document fell back to the regex); both equal what searching `joined` finds."""
    rng = random.Random(8)
    for _ in range(100):
        codes = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 80))) for _ in range(30)]
        result = lex_tokens(codes)
        assert len(result.token_starts) == int(result.counts.sum()) + 1
        assert result.token_starts.tolist() == token_starts_of(result.joined).tolist()
        hashes = accel.token_hashes_of(result.joined, result.token_starts)
        assert result.token_hashes.tolist() == hashes.tolist()
    result = lex_tokens(["", "  // only a comment"])
    assert result.token_starts.tolist() == [1] and len(result.joined) == 0 and len(result.token_hashes) == 0


def test_reused_buffers_give_what_fresh_ones_give() -> None:
    """Batches lexed one after the other into the same LexBuffers (smaller, larger, then smaller
    again: the buffers grow) come out as each batch lexed into fresh arrays."""
    rng = random.Random(9)
    buffers = LexBuffers()
    for size in (5, 200, 40, 400, 3):
        codes = ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 120))) for _ in range(size)]
        fresh = lex_tokens(codes)
        reused = lex_tokens(codes, buffers)
        for name in ("joined", "spans", "counts", "token_starts", "token_hashes"):
            assert getattr(reused, name).tolist() == getattr(fresh, name).tolist(), name
