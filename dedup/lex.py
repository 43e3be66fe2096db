"""A compiled C++ lexer that gives exactly `dedup.normalize.code_tokens(code)` (comments masked,
then the `_TOKEN` regex), many documents per call, without building a Python string per token.

Tokenising with the regex is most of the time from source text to signatures (the SHA-1 and
the permutations are compiled already), so this lexer does both regex passes compiled, over the
UTF-8 bytes, and writes what the hashing stage wants: each document's tokens joined by newlines,
documents one after the other, where each token starts and a hash of each. Runs of blanks and
of identifier bytes end where 64-byte class masks say (a vector compare per 64 bytes), not
after a test of every byte.

It follows the two regexes step by step (leftmost match, alternatives in their order), on bytes.
Bytes and characters agree for ASCII and inside string and character literals; a non-ASCII
character anywhere else (where `\\w`, `\\d` and `\\S` would look at it as one Unicode character) marks
the document, and the caller tokenises that document with the regex instead. Tests compare both
on generated text full of the awkward cases and on every example file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dedup.accel import token_hashes_of
from dedup.normalize import code_tokens

try:
    import numba
except ImportError:  # pragma: no cover - exercised on installs without numba
    numba = None  # type: ignore[assignment]


# The first byte of a token decides which alternative of `_TOKEN` can match: one table lookup.
_OTHER, _BLANK, _LETTER, _DIGIT, _QUOTE, _WIDE = range(6)
# Byte classes as ranges (first byte, how many): Python's \s and \w on ASCII.
_BLANKS = ((32, 1), (9, 5), (28, 4))
_DIGITS = ((48, 10),)
_LETTERS = ((65, 26), (97, 26), (95, 1))  # with "_": what an identifier starts with
_WORDS = _DIGITS + _LETTERS


def _members(ranges: tuple[tuple[int, int], ...]) -> list[int]:
    return [c for first, count in ranges for c in range(first, first + count)]


_KIND = np.zeros(256, dtype=np.uint8)
_KIND[_members(_BLANKS)] = _BLANK
_KIND[_members(_LETTERS)] = _LETTER
_KIND[_members(_DIGITS)] = _DIGIT
_KIND[[34, 39]] = _QUOTE
_KIND[128:] = _WIDE
_WORD = np.zeros(256, dtype=np.bool_)
_WORD[_members(_WORDS)] = True
# The lexer reads these bytes past the last document: its 64-byte class masks, 8-byte copies
# and token hashes. Zero is neither blank nor a word byte, so every run ends there.
_SLACK = 64
# SWAR constants: a byte equal to c in an 8-byte word (the classic "has zero byte" test).
_ONES, _HIGHS = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)
_SLASHES, _DQUOTES, _SQUOTES = (np.uint64(c * 0x0101010101010101) for c in (47, 34, 39))
_ALL_SET = np.uint64(0xFFFFFFFFFFFFFFFF)

if numba is not None:
    from llvmlite import ir
    from numba.core import types as _types
    from numba.extending import intrinsic

    from dedup.accel import load8, store8, token_hash
    from dedup.accel import unsigned_index as _u

    def _class_mask(name: str, ranges: tuple[tuple[int, int], ...]) -> Any:
        """An intrinsic: bit k of the uint64 it returns is set when array[index + k] (k < 64)
        is in one of the byte ranges. One vector compare per range, which the compiler turns
        into a handful of SIMD instructions (on any target LLVM knows)."""

        def typer(typingctx: Any, array: Any, index: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                data = context.make_array(signature.args[0])(context, builder, args[0]).data
                vector = ir.VectorType(ir.IntType(8), 64)
                at = builder.bitcast(builder.gep(data, [args[1]]), vector.as_pointer())
                block = builder.load(at, align=1)
                hits = None
                for first, count in ranges:
                    offset = builder.sub(block, ir.Constant(vector, [first] * 64))
                    hit = builder.icmp_unsigned("<", offset, ir.Constant(vector, [count] * 64))
                    hits = hit if hits is None else builder.or_(hits, hit)
                return builder.bitcast(hits, ir.IntType(64))

            return _types.uint64(array, index), codegen

        typer.__name__ = typer.__qualname__ = name
        return intrinsic(typer)

    _blank_mask = _class_mask("_blank_mask", _BLANKS)
    _word_mask = _class_mask("_word_mask", _WORDS)

    def _trailing_zeros(typingctx: Any, value: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return _types.uint64(value), codegen

    trailing_zeros: Any = intrinsic(_trailing_zeros)

    @numba.njit(cache=True, nogil=True)
    def _class_bits(m, size, blanks, words):
        """One bit per byte of m[:size] (and the zeros after it, to the end of their block):
        whether it is blank, whether it is a word byte."""
        for block in range(size // 64 + 1):
            blanks[_u(block)] = _blank_mask(m, _u(block * 64))
            words[_u(block)] = _word_mask(m, _u(block * 64))

    @numba.njit(cache=True, inline="always")
    def _run_end(bits, i):
        """The first position at or after i whose bit is clear (the end of a run of blanks or
        of word bytes): a shift and a count of trailing zeros, without a loop over the bytes.
        The zeros past the text stop every run."""
        block = i >> 6
        rest = ~bits[_u(block)] >> np.uint64(i & 63)
        if rest:
            return i + np.int64(trailing_zeros(rest))
        block += 1
        while bits[_u(block)] == _ALL_SET:
            block += 1
        return (block << 6) + np.int64(trailing_zeros(~bits[_u(block)]))

    @numba.njit(cache=True, inline="always")
    def _literal_end(m, i, e, quote, dotall):
        """End (exclusive) of the literal opening at i, or -1 when the regex would not match it:
        `"(?:\\\\.|[^"\\\\\\n])*"`; with `dotall` the escaped character may be a newline."""
        j = i + 1
        while j < e:
            ch = m[_u(j)]
            if ch == 92:  # backslash: escapes the next character
                if j + 1 < e and (dotall or m[_u(j + 1)] != 10):
                    j += 2
                    continue
                return -1
            if ch == quote:
                return j + 1
            if ch == 10:
                return -1
            j += 1
        return -1

    @numba.njit(cache=True, inline="always")
    def _has_byte(x, pattern):
        """Nonzero when some byte of the 8-byte word x equals the byte repeated in `pattern`."""
        y = x ^ pattern
        return (y - _ONES) & ~y & _HIGHS

    @numba.njit(cache=True, nogil=True)
    def _mask(src, s, e):
        """schemas.cpp.mask_comments on bytes src[s:e], in place: comments become spaces
        (newlines kept), literals are skipped so that `//` inside a string stays. Only `/`, `"`
        and `'` start anything, so eight bytes at a time are skipped while none of them is
        there. Every write is at or behind the scan, so the scan reads the text as written."""
        i = s
        while i < e:
            while i + 8 <= e:
                x = load8(src, _u(i))
                if _has_byte(x, _SLASHES) | _has_byte(x, _DQUOTES) | _has_byte(x, _SQUOTES):
                    break
                i += 8
            if i >= e:
                break
            c = src[_u(i)]
            if c == 47 and i + 1 < e and src[_u(i + 1)] == 47:  # //
                while i < e and src[_u(i)] != 10:
                    src[_u(i)] = 32
                    i += 1
            elif c == 47 and i + 1 < e and src[_u(i + 1)] == 42:  # /* ... */ or to the end
                j = i + 2
                end = e
                while j + 1 < e:
                    if src[_u(j)] == 42 and src[_u(j + 1)] == 47:
                        end = j + 2
                        break
                    j += 1
                for k in range(i, end):
                    if src[_u(k)] != 10:
                        src[_u(k)] = 32
                i = end
            elif c == 34 or c == 39:
                end = _literal_end(src, i, e, c, True)
                i = end if end > 0 else i + 1
            else:
                i += 1

    @numba.njit(cache=True, inline="always")
    def _operator(m, i, e):
        """Length of the operator alternative of `_TOKEN` at i (first alternative that matches)."""
        c = m[_u(i)]
        n1 = m[_u(i + 1)] if i + 1 < e else 0
        n2 = m[_u(i + 2)] if i + 2 < e else 0
        if c == 58 and n1 == 58:  # ::
            return 2
        if c == 45 and n1 == 62:  # -> and ->*
            return 3 if n2 == 42 else 2
        if c == 46 and n1 == 46 and n2 == 46:  # ...
            return 3
        if c == 60 and n1 == 60 and n2 == 61:  # <<=
            return 3
        if c == 62 and n1 == 62 and n2 == 61:  # >>=
            return 3
        if c == 60 and n1 == 61 and n2 == 62:  # <=>
            return 3
        if (c == 43 and n1 == 43) or (c == 45 and n1 == 45):  # ++ --
            return 2
        if (c == 60 and n1 == 60) or (c == 62 and n1 == 62):  # << >>
            return 2
        if (c == 60 or c == 62 or c == 61 or c == 33) and n1 == 61:  # <= >= == !=
            return 2
        if (c == 38 and n1 == 38) or (c == 124 and n1 == 124):  # && ||
            return 2
        if n1 == 61 and (
            c == 45 or c == 43 or c == 42 or c == 47 or c == 37 or c == 38 or c == 124 or c == 94
        ):
            return 2
        if c == 35 and n1 == 35:  # ##
            return 2
        return 1  # \S: any other single character

    @numba.njit(cache=True, nogil=True)
    def _lex(m, starts, ends, out, spans, counts, bad, token_starts, token_hashes, blanks, words):
        """Tokens of every document m[starts[d]:ends[d]] (comments masked first, in place):
        written to `out` joined by newlines, non-empty documents separated by one newline;
        spans[d] = (start, end) in `out`, the start of every token in `token_starts` and its
        accel.token_hash in `token_hashes` (how many: the second value returned). Runs of
        blanks and identifiers end where the class bits (`blanks`, `words`: one uint64 per 64
        bytes of `m`) say. Tokens are copied eight bytes a step, and hashed while they are at
        hand: `m` has _SLACK zero bytes past the last document, `out` eight past its last
        token."""
        for d in range(len(starts)):
            _mask(m, starts[d], ends[d])
        _class_bits(m, ends[-1], blanks, words)
        o = 0
        nt = 0
        wrote_doc = False
        for d in range(len(starts)):
            s, e = starts[d], ends[d]
            first_token = True
            doc_start = o
            doc_tokens = nt
            n = 0
            i = s
            while True:
                i = _run_end(blanks, i)
                if i >= e:
                    break
                c = m[_u(i)]
                kind = _KIND[c]
                if kind == _WIDE:
                    bad[d] = True
                    break
                j = -1
                if kind == _QUOTE:
                    j = _literal_end(m, i, e, c, False)
                elif kind == _LETTER:
                    j = min(_run_end(words, i + 1), e)
                    if j < e and m[_u(j)] >= 128:
                        bad[d] = True
                        break
                if j < 0 and (kind == _DIGIT or (c == 46 and i + 1 < e and 48 <= m[_u(i + 1)] <= 57)):
                    j = i + 2 if c == 46 else i + 1
                    while j < e:
                        x = m[_u(j)]
                        if (
                            (x == 101 or x == 69 or x == 112 or x == 80)
                            and j + 1 < e
                            and (m[_u(j + 1)] == 43 or m[_u(j + 1)] == 45)
                        ):
                            j += 2
                        elif _WORD[x] or x == 46 or x == 39:
                            j += 1
                        else:
                            break
                    if j < e and m[_u(j)] >= 128:
                        bad[d] = True
                        break
                if j < 0:
                    j = i + _operator(m, i, e)
                if first_token:
                    if wrote_doc:
                        out[_u(o)] = 10
                        o += 1
                        doc_start = o
                    first_token = False
                else:
                    out[_u(o)] = 10
                    o += 1
                token_starts[_u(nt)] = o
                token_hashes[_u(nt)] = token_hash(m, i, j - i)
                nt += 1
                for k in range(0, j - i, 8):  # past the token: overwritten by what follows
                    store8(out, _u(o + k), load8(m, _u(i + k)))
                o += j - i
                n += 1
                i = j
            if bad[d]:  # undo this document: the caller tokenises it with the regex
                o = doc_start - 1 if (n and wrote_doc) else doc_start
                nt = doc_tokens
                n = 0
                spans[d, 0] = o
                spans[d, 1] = o
                counts[d] = 0
                continue
            if n:
                wrote_doc = True
            spans[d, 0] = doc_start if n else o
            spans[d, 1] = o
            counts[d] = n
        return o, nt


@dataclass(frozen=True, slots=True)
class Lexed:
    """A batch of documents lexed: `joined` holds the tokens of each document joined by
    newlines, non-empty documents separated by one newline; spans[d] is document d's (start,
    end) in it and counts[d] its token count. For the hashing stage, so that it need not search
    `joined` again: where every token starts (int64, one entry per token, documents one after
    the other, then len(joined) + 1) and each token's accel.token_hash (uint64)."""

    joined: np.ndarray
    spans: np.ndarray
    counts: np.ndarray
    token_starts: np.ndarray
    token_hashes: np.ndarray


def lex_batch(codes: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(joined, spans, token counts) of a batch of documents (see Lexed). Equal to `code_tokens`
    of each document (without identifier abstraction)."""
    lexed = lex_tokens(codes)
    return lexed.joined, lexed.spans, lexed.counts


class LexBuffers:
    """The arrays lex_tokens works in, kept from one batch to the next (one set per thread), so
    that every batch after the first writes into pages the process has already touched instead
    of faulting in fresh ones. Sized for `room` bytes of source text: a token and a newline per
    source byte at most, the eight bytes _lex writes past a token, a class bit per byte to the
    end of the block after the text."""

    def __init__(self) -> None:
        self._allocate(0)

    def fit(self, size: int) -> LexBuffers:
        """These buffers, grown (with some headroom) if `size` bytes do not fit."""
        if size > self.room:
            self._allocate(size + size // 4)
        return self

    def _allocate(self, room: int) -> None:
        self.room = room
        self.source = bytearray(room + _SLACK)
        self.masked = np.frombuffer(self.source, dtype=np.uint8)  # the same bytes, for _lex
        self.out = np.empty(2 * room + 16, dtype=np.uint8)
        self.token_starts = np.empty(room + 1, dtype=np.int64)
        self.token_hashes = np.empty(room, dtype=np.uint64)
        self.blanks = np.empty(room // 64 + 1, dtype=np.uint64)
        self.words = np.empty(room // 64 + 1, dtype=np.uint64)


def lex_tokens(codes: list[str], buffers: LexBuffers | None = None) -> Lexed:
    """The tokens of a batch of documents, as the hashing stage wants them (see Lexed). With
    `buffers`, the arrays returned are views into them, valid until their next use."""
    encoded = [code.encode("utf-8", "surrogatepass") for code in codes]
    lengths = np.fromiter((len(b) for b in encoded), dtype=np.int64, count=len(encoded))
    ends = np.cumsum(lengths)
    starts = ends - lengths
    size = int(ends[-1]) if len(ends) else 0
    spans = np.zeros((len(codes), 2), dtype=np.int64)
    counts = np.zeros(len(codes), dtype=np.int64)
    if not size:
        joined = np.empty(0, dtype=np.uint8)
        return Lexed(joined, spans, counts, *token_index(joined))
    work = (buffers or LexBuffers()).fit(size)
    at = 0
    for piece in encoded:  # the documents one after the other, then zeros (see _SLACK)
        work.source[at : at + len(piece)] = piece
        at += len(piece)
    work.source[size : size + _SLACK] = bytes(_SLACK)
    bad = np.zeros(len(codes), dtype=np.bool_)
    used, tokens = _lex(
        work.masked,
        starts,
        ends,
        work.out,
        spans,
        counts,
        bad,
        work.token_starts,
        work.token_hashes,
        work.blanks,
        work.words,
    )
    out, token_starts, token_hashes = work.out, work.token_starts, work.token_hashes
    if not bad.any():
        token_starts[tokens] = used + 1
        return Lexed(out[:used], spans, counts, token_starts[: tokens + 1], token_hashes[:tokens])
    # Rare: some document has non-ASCII text outside literals. Rebuild with the regex for those.
    pieces: list[bytes] = []
    at = 0
    for d, code in enumerate(codes):
        if bad[d]:
            tokens = code_tokens(code)
            piece = "\n".join(tokens).encode("utf-8", "surrogatepass")
            counts[d] = len(tokens)
        else:
            piece = out[spans[d, 0] : spans[d, 1]].tobytes()
        if piece:
            if pieces:
                pieces.append(b"\n")
                at += 1
            pieces.append(piece)
        spans[d] = (at, at + len(piece))
        at += len(piece)
    joined = np.frombuffer(b"".join(pieces), dtype=np.uint8).copy()
    return Lexed(joined, spans, counts, *token_index(joined))


def token_index(joined: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(token starts, token hashes) of a newline-joined buffer the lexer did not write, as
    Lexed has them."""
    starts = token_starts_of(joined)
    return starts, token_hashes_of(joined, starts)


def token_starts_of(joined: np.ndarray) -> np.ndarray:
    """Token starts of a newline-joined buffer (every newline is followed by a token), ended by
    len(joined) + 1, as lex_tokens gives them."""
    if len(joined) == 0:
        return np.ones(1, dtype=np.int64)
    return np.concatenate([[0], np.flatnonzero(joined == 10) + 1, [len(joined) + 1]]).astype(np.int64)
