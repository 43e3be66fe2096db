"""SHA-1 of many short byte strings at once, in numpy.

datasketch hashes every shingle with SHA-1 (`sha1_hash32`), one `hashlib` call per shingle:
about half a microsecond each, which is most of its time. Shingles are short (one or two
64-byte blocks), so here the standard SHA-1 compression (FIPS 180-4) runs on columns of
thousands of messages at once: the same 80 rounds, as whole-array uint32 operations. The
result is the same digest `hashlib.sha1` gives (tests compare them).
"""

from __future__ import annotations

import numpy as np

_INIT = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)
# Tables indexed by (bytes of the message left in this word, clipped to -1..4) + 1: which bytes
# of the big-endian word are message, and where the 0x80 end marker goes.
_KEEP = np.array([0, 0, 0xFF000000, 0xFFFF0000, 0xFFFFFF00, 0xFFFFFFFF], dtype=np.uint32)
_MARK = np.array([0, 0x80000000, 0x00800000, 0x00008000, 0x00000080, 0], dtype=np.uint32)
_CHUNK = 8192  # messages per pass: the 80 schedule words of a chunk stay in cache


def big_endian_words(buf: np.ndarray) -> np.ndarray:
    """word[k] = bytes k..k+3 of `buf` read as a big-endian uint32 (zero past the end)."""
    b = np.concatenate([buf, np.zeros(4, dtype=np.uint8)]).astype(np.uint32)
    return (b[:-4] << 24) | (b[1:-3] << 16) | (b[2:-2] << 8) | b[3:-1]


def _message_word(words: np.ndarray, starts: np.ndarray, lengths: np.ndarray, w: int) -> np.ndarray:
    """Word w of the padded messages (message bytes, the 0x80 marker, zeros)."""
    index = np.minimum(starts + 4 * w, len(words) - 1)
    table = np.clip(lengths - 4 * w, -1, 4) + 1
    return (words[index] & _KEEP[table]) | _MARK[table]


def _compress(state: list[np.ndarray], block: list[np.ndarray]) -> list[np.ndarray]:
    w = block  # a ring of the last 16 schedule words keeps the working set in cache
    a, b, c, d, e = state
    for t in range(80):
        if t >= 16:
            x = w[(t - 3) & 15] ^ w[(t - 8) & 15]
            x ^= w[(t - 14) & 15]
            x ^= w[t & 15]
            w[t & 15] = (x << 1) | (x >> 31)
        if t < 20:
            f = c ^ d
            f &= b
            f ^= d
            k = 0x5A827999
        elif t < 40:
            f = b ^ c
            f ^= d
            k = 0x6ED9EBA1
        elif t < 60:
            f = b | c
            f &= d
            f |= b & c
            k = 0x8F1BBCDC
        else:
            f = b ^ c
            f ^= d
            k = 0xCA62C1D6
        temp = a << 5
        temp |= a >> 27
        temp += f
        temp += e
        temp += w[t & 15]
        temp += np.uint32(k)
        b30 = b << 30
        b30 |= b >> 2
        a, b, c, d, e = temp, a, b30, c, d
    return [s + x for s, x in zip(state, (a, b, c, d, e), strict=True)]


def _digest_group(
    words: np.ndarray, starts: np.ndarray, lengths: np.ndarray, blocks: int
) -> list[np.ndarray]:
    m = len(starts)
    state = [np.full(m, v, dtype=np.uint32) for v in _INIT]
    bit_length = (lengths * 8).astype(np.uint32)  # shingles are far below 2^29 bytes
    for blk in range(blocks):
        block = [_message_word(words, starts, lengths, 16 * blk + j) for j in range(16)]
        if blk == blocks - 1:
            block[15] = block[15] | bit_length  # the high length word stays 0
        state = _compress(state, block)
    return state


def sha1_ranges(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """SHA-1 state words (H0..H4, shape (m, 5), uint32) of the byte ranges buf[start:start+length].

    The digest bytes are the five words big-endian; `datasketch.hashfunc.sha1_hash32` is the
    first four digest bytes read little-endian, i.e. H0 byte-swapped (see `hash32`).
    """
    words = big_endian_words(buf)
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    out = np.empty((len(starts), 5), dtype=np.uint32)
    nblocks = (lengths + 8) // 64 + 1
    for blocks in np.unique(nblocks).tolist():
        members = np.flatnonzero(nblocks == blocks)
        for lo in range(0, len(members), _CHUNK):
            chunk = members[lo : lo + _CHUNK]
            state = _digest_group(words, starts[chunk], lengths[chunk], blocks)
            out[chunk] = np.stack(state, axis=1)
    return out


def hash32(state: np.ndarray) -> np.ndarray:
    """`sha1_hash32` values from SHA-1 states: the first digest word, read little-endian."""
    return state[:, 0].byteswap()


def fingerprint64(state: np.ndarray) -> np.ndarray:
    """A 64-bit identity of each message from digest words H1 and H2 (independent of hash32)."""
    return (state[:, 1].astype(np.uint64) << np.uint64(32)) | state[:, 2].astype(np.uint64)
