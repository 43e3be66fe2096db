"""A compiled C++ lexer that gives exactly `dedup.normalize.code_tokens(code)` (comments masked,
then the `_TOKEN` regex), many documents per call, without building a Python string per token.

Tokenising with the regex is most of the time from source text to signatures (the SHA-1 and
the permutations are compiled already), so this lexer does both regex passes in one compiled
loop over the UTF-8 bytes and writes what the hashing stage wants: each document's tokens joined
by newlines, documents one after the other.

It follows the two regexes step by step (leftmost match, alternatives in their order), on bytes.
Bytes and characters agree for ASCII and inside string and character literals; a non-ASCII
character anywhere else (where `\\w`, `\\d` and `\\S` would look at it as one Unicode character) marks
the document, and the caller tokenises that document with the regex instead. Tests compare both
on generated text full of the awkward cases and on every example file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dedup.accel import token_hashes_of
from dedup.normalize import code_tokens

try:
    import numba
except ImportError:  # pragma: no cover - exercised on installs without numba
    numba = None  # type: ignore[assignment]


# The first byte of a token decides which alternative of `_TOKEN` can match: one table lookup.
_OTHER, _BLANK, _LETTER, _DIGIT, _QUOTE, _WIDE = range(6)
_KIND = np.zeros(256, dtype=np.uint8)
_KIND[[32, *range(9, 14), *range(28, 32)]] = _BLANK  # Python's \s on ASCII
_KIND[[*range(65, 91), *range(97, 123), 95]] = _LETTER
_KIND[48:58] = _DIGIT
_KIND[[34, 39]] = _QUOTE
_KIND[128:] = _WIDE
_WORD = np.zeros(256, dtype=np.bool_)  # \w on ASCII
_WORD[[*range(48, 58), *range(65, 91), *range(97, 123), 95]] = True
# SWAR constants: a byte equal to c in an 8-byte word (the classic "has zero byte" test).
_ONES, _HIGHS = np.uint64(0x0101010101010101), np.uint64(0x8080808080808080)
_SLASHES, _DQUOTES, _SQUOTES = (np.uint64(c * 0x0101010101010101) for c in (47, 34, 39))

if numba is not None:
    from dedup.accel import load8, store8, token_hash
    from dedup.accel import unsigned_index as _u

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
    def _lex(m, starts, ends, out, spans, counts, bad, token_starts, token_hashes):
        """Tokens of every document m[starts[d]:ends[d]] (its comments masked here, in place):
        written to `out` joined by newlines, non-empty documents separated by one newline;
        spans[d] = (start, end) in `out`, the start of every token in `token_starts` and its
        accel.token_hash in `token_hashes` (how many: the second value returned). Tokens are
        copied eight bytes a step, and hashed from the same words while they are at hand: `m`
        has sixteen readable bytes past the last document, `out` eight past its last token."""
        o = 0
        nt = 0
        wrote_doc = False
        for d in range(len(starts)):
            s, e = starts[d], ends[d]
            _mask(m, s, e)
            first_token = True
            doc_start = o
            doc_tokens = nt
            n = 0
            i = s
            while i < e:
                c = m[_u(i)]
                kind = _KIND[c]
                if kind == _BLANK:
                    i += 1
                    continue
                if kind == _WIDE:
                    bad[d] = True
                    break
                j = -1
                if kind == _QUOTE:
                    j = _literal_end(m, i, e, c, False)
                elif kind == _LETTER:
                    j = i + 1
                    while j < e and _WORD[m[_u(j)]]:
                        j += 1
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
    """The output arrays of lex_tokens, kept from one batch to the next (one set per thread).
    Writing into pages the process has already touched saves the page faults of fresh arrays:
    about a tenth of the lexer's time on real repositories."""

    def __init__(self) -> None:
        self._out = np.empty(0, dtype=np.uint8)
        self._starts = np.empty(0, dtype=np.int64)
        self._hashes = np.empty(0, dtype=np.uint64)

    def for_bytes(self, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(out, token_starts, token_hashes) large enough for `size` bytes of source text: a
        token and a newline per byte at most, plus the eight bytes _lex writes past a token."""
        if len(self._starts) < size + 1:
            room = size + size // 4  # some headroom, so that slowly growing batches fit
            self._out = np.empty(2 * room + 16, dtype=np.uint8)
            self._starts = np.empty(room + 1, dtype=np.int64)
            self._hashes = np.empty(room, dtype=np.uint64)
        return self._out, self._starts, self._hashes


def lex_tokens(codes: list[str], buffers: LexBuffers | None = None) -> Lexed:
    """The tokens of a batch of documents, as the hashing stage wants them (see Lexed). With
    `buffers`, the arrays returned are views into them, valid until their next use."""
    encoded = [code.encode("utf-8", "surrogatepass") for code in codes]
    lengths = np.fromiter((len(b) for b in encoded), dtype=np.int64, count=len(encoded))
    ends = np.cumsum(lengths)
    starts = ends - lengths
    size = int(ends[-1]) if len(ends) else 0
    encoded.append(bytes(16))  # the sixteen bytes _lex may read past the last document
    src = np.frombuffer(bytearray().join(encoded), dtype=np.uint8)  # writable: masked in place
    out, token_starts, token_hashes = (buffers or LexBuffers()).for_bytes(size)
    spans = np.zeros((len(codes), 2), dtype=np.int64)
    counts = np.zeros(len(codes), dtype=np.int64)
    bad = np.zeros(len(codes), dtype=np.bool_)
    used, tokens = _lex(src, starts, ends, out, spans, counts, bad, token_starts, token_hashes)
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
    token_starts = token_starts_of(joined)
    return Lexed(joined, spans, counts, token_starts, token_hashes_of(joined, token_starts))


def token_starts_of(joined: np.ndarray) -> np.ndarray:
    """Token starts of a newline-joined buffer (every newline is followed by a token), ended by
    len(joined) + 1, as lex_tokens gives them."""
    if len(joined) == 0:
        return np.ones(1, dtype=np.int64)
    return np.concatenate([[0], np.flatnonzero(joined == 10) + 1, [len(joined) + 1]]).astype(np.int64)
