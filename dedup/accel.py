"""Compiled kernels (numba) for the two hot loops: SHA-1 of every shingle and the MinHash minimum.

datasketch calls `hashlib.sha1` once per shingle from Python and then runs numpy on each
document: the Python call overhead is most of its time. Here each kernel is one compiled loop
over a whole batch, run on every core. The arithmetic is the same (FIPS 180-4 SHA-1; the same
permutations in the same integer widths), so the results are bit-for-bit datasketch's; the
numpy implementations in dedup.sha1 and dedup.minhash compute the same values and are used
when numba is not installed (tests compare all three).
"""

from __future__ import annotations

import platform
from typing import Any

import numpy as np

try:
    import numba
except ImportError:  # pragma: no cover - exercised on installs without numba
    numba = None  # type: ignore[assignment]

AVAILABLE = numba is not None

# Every constant is uint64: numba turns a uint64 mixed with a signed int into a float.
_M32 = np.uint64(0xFFFFFFFF)
_S8, _S16, _S24, _S27, _S30, _S31, _S32 = (np.uint64(v) for v in (8, 16, 24, 27, 30, 31, 32))
_K1, _K2, _K3, _K4 = (np.uint32(v) for v in (0x5A827999, 0x6ED9EBA1, 0x8F1BBCDC, 0xCA62C1D6))
_R1, _R2, _R5, _R13, _R16, _R27, _R30, _R31 = (np.uint32(v) for v in (1, 2, 5, 13, 16, 27, 30, 31))
_FMIX1, _FMIX2 = np.uint32(0x85EBCA6B), np.uint32(0xC2B2AE35)
_ALL32, _TOP32 = np.uint32(0xFFFFFFFF), np.uint32(0x80000000)
_INIT = np.array([0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0], dtype=np.uint32)
_LANES = 64
# _LOW_BYTES[r] keeps the r low bytes of a little-endian 8-byte load (a token or shingle's last
# bytes). The scalar loops of the interning read this table (5% faster there than computing the
# mask); the SHA-1 block fill computes its masks with shifts, which vectorise.
_LOW_BYTES = np.array([(1 << (8 * r)) - 1 for r in range(8)] + [(1 << 64) - 1], dtype=np.uint64)
_HASH_SEED, _GOLDEN = np.uint64(0xCBF29CE484222325), np.uint64(0x9E3779B97F4A7C15)
_BYTE = np.uint64(0xFF)

if numba is not None:

    @numba.njit(cache=True, inline="always")
    def unsigned_index(i):
        """An array index as unsigned: numba guards every signed index against a negative value
        (Python's wraparound), a cost the hot loops (here and in dedup.lex) would pay on each
        access."""
        return np.uint64(i)

    _u = unsigned_index

    from llvmlite import ir
    from numba.core import types as _types
    from numba.extending import intrinsic

    def _unaligned_load(name: str, big_endian: bool) -> Any:
        """An intrinsic: the eight bytes array[index:index + 8] of a uint8 array as one uint64,
        from any offset (an unaligned load; the caller keeps index + 8 within the array)."""

        def typer(typingctx: Any, array: Any, index: Any) -> Any:
            def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
                data = context.make_array(signature.args[0])(context, builder, args[0]).data
                at = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
                value = builder.load(at, align=1)
                return builder.bswap(value) if big_endian else value

            return _types.uint64(array, index), codegen

        typer.__name__ = typer.__qualname__ = name
        return intrinsic(typer)

    load8 = _unaligned_load("load8", big_endian=False)  # little-endian: for hashes and compares
    load8_be = _unaligned_load("load8_be", big_endian=True)  # SHA-1's two message words

    def _store8(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
        """array[index:index + 8] = the eight bytes of uint64 `value`, little-endian, at any
        offset (an unaligned store; the caller keeps index + 8 within the array)."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            at = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(64).as_pointer())
            builder.store(args[2], at, align=1)
            return context.get_dummy_value()

        return _types.void(array, index, _types.uint64), codegen

    store8: Any = intrinsic(_store8)

    @numba.njit(cache=True, inline="always")
    def same_bytes(array, a, b, length):
        """Whether array[a:a + length] equals array[b:b + length]: eight bytes a step."""
        for k in range(0, length, 8):
            if (load8(array, _u(a + k)) ^ load8(array, _u(b + k))) & _LOW_BYTES[_u(min(length - k, 8))]:
                return False
        return True

    @numba.njit(cache=True, inline="always")
    def token_hash(array, start, length):
        """A 64-bit hash of the bytes array[start:start + length], eight bytes a step (the array
        has sixteen readable bytes past the end). Only the interning's lookups use it, and they
        confirm every match on the bytes, so it needs to spread well, not to be any standard."""
        # The first sixteen bytes without a branch (97% of real tokens fit; a loop's exit would
        # mispredict on the one token in six longer than eight bytes), the rest in a loop.
        h = (
            _HASH_SEED ^ np.uint64(length) ^ (load8(array, _u(start)) & _LOW_BYTES[_u(min(length, 8))])
        ) * _GOLDEN
        h = (h ^ (load8(array, _u(start + 8)) & _LOW_BYTES[_u(min(max(length - 8, 0), 8))])) * _GOLDEN
        for k in range(16, length, 8):
            h = (h ^ (load8(array, _u(start + k)) & _LOW_BYTES[_u(min(length - k, 8))])) * _GOLDEN
        return h

    @numba.njit(cache=True, inline="always")
    def _put_digest(i, a, b, c, h32, fps):
        """sha1_hash32 (the digest's first four bytes read little-endian) and the fingerprint
        (words B, C) of message i."""
        x = np.uint64(a)
        h32[_u(i)] = np.uint32(
            ((x & _BYTE) << _S24)
            | (((x >> _S8) & _BYTE) << _S16)
            | (((x >> _S16) & _BYTE) << _S8)
            | (x >> _S24)
        )
        fps[_u(i)] = (np.uint64(b) << _S32) | np.uint64(c)

    @numba.njit(cache=True, nogil=True)
    def _sha1_lanes(buf, size, starts, lengths, order, h32, fps):
        """SHA-1 of byte ranges, _LANES messages at a time. The message schedule is computed for
        all lanes of a group at once (a loop over lanes per step: SIMD); then each lane's 80
        rounds are one straight loop body over scalar locals, and the loop over lanes around it
        is what the compiler vectorises, so the five state words stay in vector registers for
        all 80 rounds. A lane whose message has fewer blocks than the longest of its group
        keeps its state after its last block: `order` puts one-block messages first, longer ones
        after (about 4% of real shingles need a second block), and the shortest first of all.
        The messages are byte ranges of buf[:size], read eight bytes at a time (buf has _PAD
        bytes to spare past `size`). Runs without the GIL: the callers' thread pool hashes
        several batches at once."""
        n = len(starts)
        own = np.empty(_LANES, dtype=np.int64)
        base = np.empty(_LANES, dtype=np.int64)
        left = np.empty(_LANES, dtype=np.int32)
        bits = np.empty(_LANES, dtype=np.uint32)
        w = np.empty((80, _LANES), dtype=np.uint32)
        h = np.empty((5, _LANES), dtype=np.uint32)
        for g in range((n + _LANES - 1) // _LANES):
            first = g * _LANES
            for j in range(5):
                for lane in range(_LANES):
                    h[j, lane] = _INIT[j]
            blocks = 0
            longest = 0
            for lane in range(_LANES):
                i = order[_u(min(first + lane, n - 1))]  # spare lanes repeat the last message
                own[_u(lane)] = (lengths[_u(i)] + 8) // 64 + 1
                blocks = max(blocks, own[_u(lane)])
                longest = max(longest, lengths[_u(i)])
            # Up to 31 bytes (three real shingles in four), the message and its 0x80 marker fit in
            # the first eight words and the next seven are zeros: half the copying and masking.
            filled = 8 if longest <= 31 else 16
            for blk in range(blocks):
                for lane in range(_LANES):
                    i = order[_u(min(first + lane, n - 1))]
                    base[_u(lane)] = starts[_u(i)] + blk * 64
                    left[_u(lane)] = np.int32(lengths[_u(i)] - blk * 64)
                    bits[_u(lane)] = (
                        np.uint32(lengths[_u(i)] * 8) if blk == own[_u(lane)] - 1 else np.uint32(0)
                    )
                # The padded block in two passes, so that no lane takes a branch of its own:
                # sixteen words copied per lane (two per load), then masked past the message
                # end, with the 0x80 marker, across all lanes at once (SIMD). Branching per lane
                # on the length mispredicts, and it had cost more than the 80 rounds.
                for lane in range(_LANES):
                    at = min(base[_u(lane)], size)  # a lane past its last block reads anything
                    for j in range(filled // 2):
                        pair = load8_be(buf, _u(at + 8 * j))
                        w[2 * j, lane] = np.uint32(pair >> _S32)
                        w[2 * j + 1, lane] = np.uint32(pair & _M32)
                for j in range(filled, 16):
                    for lane in range(_LANES):
                        w[j, lane] = 0
                for j in range(filled):
                    for lane in range(_LANES):
                        rem = left[_u(lane)] - np.int32(4 * j)  # message bytes left at this word
                        r4 = np.uint32(min(max(rem, np.int32(0)), np.int32(4))) << _R2
                        # Two shifts: a shift by 32 would be undefined.
                        keep = ~((_ALL32 >> r4) >> r4)
                        mark = (_TOP32 >> r4) >> r4 if np.uint32(rem) < np.uint32(4) else np.uint32(0)
                        w[j, lane] = (w[j, lane] & keep) | mark
                for lane in range(_LANES):
                    w[15, lane] |= bits[_u(lane)]
                for t in range(16, 80):
                    for lane in range(_LANES):
                        x = w[t - 3, lane] ^ w[t - 8, lane] ^ w[t - 14, lane] ^ w[t - 16, lane]
                        w[t, lane] = (x << _R1) | (x >> _R31)
                for lane in range(_LANES):
                    aa, bb, cc, dd, ee = h[0, lane], h[1, lane], h[2, lane], h[3, lane], h[4, lane]
                    # np.uint32 keeps every value 32-bit (numba widens uint32 arithmetic to 64).
                    for t in range(20):
                        f = dd ^ (bb & (cc ^ dd))
                        temp = np.uint32(
                            np.uint32(np.uint32(aa << _R5) | (aa >> _R27)) + f + ee + _K1 + w[t, lane]
                        )
                        ee, dd, cc, bb, aa = dd, cc, np.uint32(np.uint32(bb << _R30) | (bb >> _R2)), aa, temp
                    for t in range(20, 40):
                        temp = np.uint32(
                            np.uint32(np.uint32(aa << _R5) | (aa >> _R27))
                            + (bb ^ cc ^ dd)
                            + ee
                            + _K2
                            + w[t, lane]
                        )
                        ee, dd, cc, bb, aa = dd, cc, np.uint32(np.uint32(bb << _R30) | (bb >> _R2)), aa, temp
                    for t in range(40, 60):
                        f = (bb & cc) | (dd & (bb | cc))
                        temp = np.uint32(
                            np.uint32(np.uint32(aa << _R5) | (aa >> _R27)) + f + ee + _K3 + w[t, lane]
                        )
                        ee, dd, cc, bb, aa = dd, cc, np.uint32(np.uint32(bb << _R30) | (bb >> _R2)), aa, temp
                    for t in range(60, 80):
                        temp = np.uint32(
                            np.uint32(np.uint32(aa << _R5) | (aa >> _R27))
                            + (bb ^ cc ^ dd)
                            + ee
                            + _K4
                            + w[t, lane]
                        )
                        ee, dd, cc, bb, aa = dd, cc, np.uint32(np.uint32(bb << _R30) | (bb >> _R2)), aa, temp
                    if blk < own[_u(lane)]:
                        h[0, lane] += aa
                        h[1, lane] += bb
                        h[2, lane] += cc
                        h[3, lane] += dd
                        h[4, lane] += ee
            for lane in range(min(_LANES, n - first)):
                _put_digest(order[_u(first + lane)], h[0, lane], h[1, lane], h[2, lane], h32, fps)

    # SHA-1 on the CPU's SHA extensions (x86 SHA-NI), where it has them: an instruction does four
    # rounds of one message, so a 64-byte block is twenty of them plus the message schedule.
    # On ops-math's distinct shingles: 15.5 ns a message, against 19 ns on the 16 lanes above.
    # numba has no names for these instructions; the intrinsics below write them as LLVM IR.
    # One message's rounds form a chain, each waiting for the last: four one-block messages
    # are hashed together, their instructions interleaved, so the chains overlap.
    from numba.core import cgutils

    _VEC4 = ir.VectorType(ir.IntType(32), 4)
    _BYTES16 = ir.VectorType(ir.IntType(8), 16)
    _I8, _I32, _I64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
    # A state vector holds the words (D, C, B, A): the instructions keep A in the top lane.
    _NI_START = ir.Constant(_VEC4, [int(v) for v in _INIT[3::-1]])
    _NI_E = ir.Constant(_VEC4, [0, 0, 0, int(_INIT[4])])

    def _x86(builder: Any, name: str, *args: Any) -> Any:
        signature = ir.FunctionType(_VEC4, [a.type for a in args])
        return builder.call(
            cgutils.get_or_insert_function(builder.module, signature, "llvm.x86." + name), args
        )

    def _ni_message(builder: Any, data: Any, at: Any, left: Any, bits: Any) -> list[Any]:
        """One padded block as four vectors of words: the 64 bytes at data[at], those from
        byte `left` on replaced by the 0x80 marker (at `left`) and zeros, `bits` or-ed into the
        last word (the message length, in its last block). Bytes are reversed per 16 (the
        instructions take the first word in the top lane, each word big-endian)."""
        low, high = ir.Constant(_I64, -1), ir.Constant(_I64, 64)
        left = builder.select(builder.icmp_signed("<", left, low), low, left)
        left = builder.select(builder.icmp_signed(">", left, high), high, left)
        splat = builder.shuffle_vector(
            builder.insert_element(ir.Constant(_BYTES16, ir.Undefined), builder.trunc(left, _I8), _I32(0)),
            ir.Constant(_BYTES16, ir.Undefined),
            ir.Constant(ir.VectorType(_I32, 16), [0] * 16),
        )
        reverse = ir.Constant(ir.VectorType(_I32, 16), list(range(15, -1, -1)))
        marker, zeros = ir.Constant(_BYTES16, [0x80] * 16), ir.Constant(_BYTES16, [0] * 16)
        words = []
        for q in range(4):
            where = builder.bitcast(builder.gep(data, [builder.add(at, _I64(16 * q))]), _BYTES16.as_pointer())
            raw = builder.load(where, align=1)
            index = ir.Constant(_BYTES16, list(range(16 * q, 16 * q + 16)))
            tail = builder.select(builder.icmp_signed("==", index, splat), marker, zeros)
            kept = builder.select(builder.icmp_signed("<", index, splat), raw, tail)
            words.append(builder.bitcast(builder.shuffle_vector(kept, kept, reverse), _VEC4))
        word15 = builder.or_(builder.extract_element(words[3], _I32(0)), bits)
        words[3] = builder.insert_element(words[3], word15, _I32(0))
        return words

    def _ni_rounds(
        builder: Any, states: list[tuple[Any, Any]], blocks: list[list[Any]]
    ) -> list[tuple[Any, Any]]:
        """The 80 rounds of one block for each (abcd, e) state, with the feed-forward added; e is
        a vector with the word in its top lane. Group i of four rounds takes message vector i,
        and the schedule makes vector i + 1 (msg2), i + 2 (xor) and i + 3 (msg1) as it goes."""
        blocks = [list(m) for m in blocks]
        abcd = [a for a, _ in states]
        before: list[Any] = [None] * len(states)
        for i in range(20):
            for j, m in enumerate(blocks):
                mi = m[i % 4]
                e = builder.add(states[j][1], mi) if i == 0 else _x86(builder, "sha1nexte", before[j], mi)
                if 3 <= i <= 18:
                    m[(i + 1) % 4] = _x86(builder, "sha1msg2", m[(i + 1) % 4], mi)
                before[j] = abcd[j]
                abcd[j] = _x86(builder, "sha1rnds4", abcd[j], e, _I8(i // 5))
                if 1 <= i <= 16:
                    m[(i - 1) % 4] = _x86(builder, "sha1msg1", m[(i - 1) % 4], mi)
                if 2 <= i <= 17:
                    m[(i - 2) % 4] = builder.xor(m[(i - 2) % 4], mi)
        return [
            (builder.add(abcd[j], states[j][0]), _x86(builder, "sha1nexte", before[j], states[j][1]))
            for j in range(len(states))
        ]

    def _as(context: Any, builder: Any, value: Any, of: Any, to: Any) -> Any:
        return context.cast(builder, value, of, to)

    def _sha1_ni_block(
        typingctx: Any, buf: Any, at: Any, left: Any, bits: Any, a: Any, b: Any, c: Any, d: Any, e: Any
    ) -> Any:
        """The state (a, b, c, d, e) after one more block: the 64 bytes at buf[at], message
        bytes left from there `left`, `bits` the message length in bits in its last block
        (else 0). Needs the SHA extensions."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            u32, i64 = _types.uint32, _types.int64
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            at_, left_ = (_as(context, builder, args[k], signature.args[k], i64) for k in (1, 2))
            block = _ni_message(
                builder, data, at_, left_, _as(context, builder, args[3], signature.args[3], u32)
            )
            words = [
                _as(context, builder, v, t, u32) for v, t in zip(args[4:], signature.args[4:], strict=True)
            ]
            abcd = ir.Constant(_VEC4, ir.Undefined)
            for lane, word in enumerate(words[3::-1]):
                abcd = builder.insert_element(abcd, word, _I32(lane))
            e_vec = builder.insert_element(ir.Constant(_VEC4, [0] * 4), words[4], _I32(3))
            ((abcd, e_vec),) = _ni_rounds(builder, [(abcd, e_vec)], [block])
            out = [builder.extract_element(abcd, _I32(3 - k)) for k in range(4)]
            return context.make_tuple(
                builder, signature.return_type, [*out, builder.extract_element(e_vec, _I32(3))]
            )

        return _types.UniTuple(_types.uint32, 5)(buf, at, left, bits, a, b, c, d, e), codegen

    def _sha1_ni_four(
        typingctx: Any, buf: Any, at0: Any, n0: Any, at1: Any, n1: Any, at2: Any, n2: Any, at3: Any, n3: Any
    ) -> Any:
        """(A, B, C) of the digests of four messages of at most 55 bytes (one block each),
        buf[at:at + n]; their rounds interleaved. Needs the SHA extensions."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64 = _types.int64
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            blocks = []
            for k in range(4):
                at_, n_ = (
                    _as(context, builder, args[v], signature.args[v], i64) for v in (1 + 2 * k, 2 + 2 * k)
                )
                bits = builder.trunc(builder.shl(n_, _I64(3)), _I32)
                blocks.append(_ni_message(builder, data, at_, n_, bits))
            digests = _ni_rounds(builder, [(_NI_START, _NI_E)] * 4, blocks)
            out = [builder.extract_element(abcd, _I32(3 - k)) for abcd, _ in digests for k in range(3)]
            return context.make_tuple(builder, signature.return_type, out)

        return _types.UniTuple(_types.uint32, 12)(buf, at0, n0, at1, n1, at2, n2, at3, n3), codegen

    # Intrinsics: called from compiled code only, as sha1_ni_block(buf, at, left, bits, a, b, c,
    # d, e) and sha1_ni_four(buf, at0, n0, at1, n1, at2, n2, at3, n3).
    sha1_ni_block: Any = intrinsic(_sha1_ni_block)
    sha1_ni_four: Any = intrinsic(_sha1_ni_four)

    @numba.njit(cache=True, nogil=True)
    def _sha1_ni(buf, starts, lengths, order, one_block, h32, fps):
        """SHA-1 of byte ranges of buf on the SHA extensions: the first `one_block` of `order`
        (messages of at most 55 bytes) four at a time, the rest one block after another."""
        g = 0
        while g + 4 <= one_block:
            i0, i1, i2, i3 = order[_u(g)], order[_u(g + 1)], order[_u(g + 2)], order[_u(g + 3)]
            r = sha1_ni_four(
                buf,
                starts[_u(i0)], lengths[_u(i0)], starts[_u(i1)], lengths[_u(i1)],
                starts[_u(i2)], lengths[_u(i2)], starts[_u(i3)], lengths[_u(i3)],
            )  # fmt: skip
            _put_digest(i0, r[0], r[1], r[2], h32, fps)
            _put_digest(i1, r[3], r[4], r[5], h32, fps)
            _put_digest(i2, r[6], r[7], r[8], h32, fps)
            _put_digest(i3, r[9], r[10], r[11], h32, fps)
            g += 4
        for t in range(g, len(order)):
            i = order[_u(t)]
            at, n = starts[_u(i)], lengths[_u(i)]
            a, b, c, d, e = _INIT[0], _INIT[1], _INIT[2], _INIT[3], _INIT[4]
            blocks = (n + 8) // 64 + 1
            for k in range(blocks):
                bits = np.uint32(n * 8) if k == blocks - 1 else np.uint32(0)
                a, b, c, d, e = sha1_ni_block(buf, at + 64 * k, n - 64 * k, bits, a, b, c, d, e)
            _put_digest(i, a, b, c, h32, fps)

    # Serial and GIL-free: the caller splits documents over a thread pool. (numba's own
    # parallel loops would start OpenMP threads that spin between calls and steal the cores.)
    @numba.njit(cache=True, nogil=True)
    def _minhash_affine32(h32, indptr, a, b, out):
        most = 0
        for d in range(len(indptr) - 1):
            most = max(most, indptr[d + 1] - indptr[d])
        mixed = np.empty(most, dtype=np.uint32)
        for d in range(len(indptr) - 1):
            lo, size = indptr[d], indptr[d + 1] - indptr[d]
            for i in range(size):
                # MurmurHash3's finalizer (datasketch's pre-mix), here rather than in numpy: no
                # temporary arrays the size of the corpus.
                x = np.uint32(h32[_u(lo + i)])
                x ^= x >> _R16
                x = np.uint32(x * _FMIX1)
                x ^= x >> _R13
                x = np.uint32(x * _FMIX2)
                x ^= x >> _R16
                mixed[_u(i)] = x
            row = out[d]
            # One permutation at a time over all the document's hashes: a minimum kept in a
            # register, sixteen hashes a step, instead of loading and storing the row per hash.
            for k in range(len(a)):
                ak, bk = a[k], b[k]
                low = row[k]
                for i in range(size):
                    low = min(low, np.uint32(ak * mixed[_u(i)] + bk))  # mod 2^32, as datasketch
                row[k] = low

    @numba.njit(cache=True, nogil=True)
    def _minhash_legacy(hashes, indptr, a, b, prime, max_hash, out):
        for d in range(len(indptr) - 1):
            row = out[d]
            for i in range(indptr[d], indptr[d + 1]):
                h = np.uint64(hashes[i])
                for k in range(len(a)):
                    v = ((a[k] * h + b[k]) % prime) & max_hash  # uint64 wraps, as in datasketch
                    if v < row[k]:
                        row[k] = v


_widened: set[object] = set()


def _host_has(feature: str) -> bool:
    """Whether numba compiles for this CPU (no target chosen through NUMBA_CPU_NAME) and the CPU
    has `feature` (LLVM's name: "avx512f", "sha")."""
    if numba is None or getattr(numba.config, "CPU_NAME", None) is not None:
        return False
    import llvmlite.binding as llvm

    return bool(llvm.get_host_cpu_features().get(feature))


def _wide_lanes() -> bool:
    """Whether this CPU has 512-bit vectors."""
    return _host_has("avx512f")


# Whether sha1_padded runs on the SHA extensions (_sha1_ni, x86 only: its intrinsics are
# x86's) or on vector lanes (_sha1_lanes). Both give the same digests; tests set this to False
# to check the lanes on any CPU.
SHA_EXTENSIONS = platform.machine().lower() in ("x86_64", "amd64") and _host_has("sha")


def _run_wide(kernel: Any, *args: Any) -> None:
    """Call a lane-parallel kernel, compiled at 16 lanes of 32 bits where the CPU has 512-bit
    vectors. LLVM's cost model for such CPUs stops at 256 bits (8 lanes); forced to 16 lanes,
    the SHA-1 kernel runs about 15% faster (benchmarks/bench_dedup.py). The option is global to
    LLVM, so it is set only while this one kernel compiles, under numba's compiler lock; numba's
    cache keeps the result."""
    if kernel not in _widened:
        if _wide_lanes():
            import llvmlite.binding as llvm
            from numba.core.compiler_lock import global_compiler_lock

            with global_compiler_lock:
                llvm.set_option("", "-force-vector-width=16")
                try:
                    kernel.compile(tuple(numba.typeof(a) for a in args))
                finally:
                    llvm.set_option("", "-force-vector-width=0")
        _widened.add(kernel)
    kernel(*args)


# Bytes readable past the end of the buffers the kernels read eight bytes at a time: a SHA-1
# block is read from at most the end of the data (where a lane's block starts later, none of
# what it reads is used) and is 64 bytes long.
_PAD = 128


def padded(buf: np.ndarray) -> np.ndarray:
    """A copy of `buf` with _PAD zero bytes after it (what sha1_padded and the interning read)."""
    out = np.empty(len(buf) + _PAD, dtype=np.uint8)
    out[: len(buf)] = buf
    out[len(buf) :] = 0
    return out


def sha1_padded(
    buf: np.ndarray, size: int, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """sha1_hash_ranges of ranges of buf[:size], where buf has _PAD bytes to spare after `size`."""
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    h32 = np.empty(len(starts), dtype=np.uint32)
    fps = np.empty(len(starts), dtype=np.uint64)
    if not len(starts):
        return h32, fps
    one_block = lengths <= 55  # with the 0x80 marker and the 8-byte length: 64 bytes
    if SHA_EXTENSIONS:
        order = np.concatenate([np.flatnonzero(one_block), np.flatnonzero(~one_block)])
        _sha1_ni(buf, starts, lengths, order, np.int64(one_block.sum()), h32, fps)
        return h32, fps
    short = lengths <= 31  # the message and its marker in the first eight words
    order = np.concatenate(
        [np.flatnonzero(short), np.flatnonzero(one_block & ~short), np.flatnonzero(~one_block)]
    )
    _run_wide(_sha1_lanes, buf, np.int64(size), starts, lengths, order, h32, fps)
    return h32, fps


def sha1_hash_ranges(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(sha1_hash32, 64-bit fingerprint from digest words H1 H2) of every byte range of `buf`."""
    return sha1_padded(padded(buf), len(buf), starts, lengths)


def minhash_affine32(
    h32: np.ndarray, indptr: np.ndarray, a: np.ndarray, b: np.ndarray, out: np.ndarray
) -> None:
    """Fold the affine32 MinHash of each document's sha1_hash32 values (h32[indptr[d]:indptr[d+1]])
    into out[d]."""
    _minhash_affine32(h32, indptr, a, b, out)


def minhash_legacy(
    hashes: np.ndarray,
    indptr: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    prime: np.uint64,
    max_hash: np.uint64,
    out: np.ndarray,
) -> None:
    _minhash_legacy(hashes, indptr, a, b, prime, max_hash, out)


if numba is not None:

    @numba.njit(cache=True, nogil=True)
    def _sort_segments(fps, h32, indptr, out_fps, out_h32, keep):
        for d in range(len(indptr) - 1):
            lo, hi = indptr[d], indptr[d + 1]
            order = np.argsort(fps[lo:hi])
            for j in range(hi - lo):
                out_fps[lo + j] = fps[lo + order[j]]
                out_h32[lo + j] = h32[lo + order[j]]
                keep[lo + j] = j == 0 or out_fps[lo + j] != out_fps[lo + j - 1]


def sort_unique_segments(
    fps: np.ndarray, h32: np.ndarray, indptr: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Within each document segment: sort by fingerprint and drop repeats; returns the kept
    fingerprints, their hashes and the kept count per document."""
    out_fps = np.empty_like(fps)
    out_h32 = np.empty_like(h32)
    keep = np.empty(len(fps), dtype=np.bool_)
    _sort_segments(fps, h32, indptr, out_fps, out_h32, keep)
    counts = np.add.reduceat(keep, indptr[:-1]) if len(fps) else np.zeros(len(indptr) - 1, dtype=np.int64)
    counts[np.diff(indptr) == 0] = 0  # reduceat gives the next element for an empty segment
    return out_fps[keep], out_h32[keep], counts.astype(np.int64)


_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_ODD = np.random.RandomState(14).randint(1, 1 << 62, 64, dtype=np.uint64) | np.uint64(1)

if numba is not None:

    @numba.njit(cache=True, inline="always")
    def _mix(x):
        x = (x ^ (x >> _S30)) * _MIX1
        x = (x ^ (x >> _S27)) * _MIX2
        return x ^ (x >> _S31)

    @numba.njit(cache=True, nogil=True)
    def _token_hashes(buf, token_starts):
        """token_hash of every token of a newline-joined buffer (sixteen bytes to spare)."""
        n_tokens = len(token_starts) - 1
        token_hashes = np.empty(n_tokens, dtype=np.uint64)
        for j in range(n_tokens):
            a = token_starts[_u(j)]
            token_hashes[_u(j)] = token_hash(buf, a, token_starts[_u(j + 1)] - 1 - a)
        return token_hashes

    @numba.njit(cache=True, nogil=True)
    def _intern_shingles(buf, counts, token_starts, token_hashes, ngram, rep_start, rep_len, per_doc):
        """The distinct shingles of each document (byte range of the first occurrence), in order
        of first occurrence. Each shingle gets a mix of its tokens' hashes (token_hash), looked
        up in a small per-document table; equal hashes are confirmed by comparing the shingles'
        bytes (exact: a hash is never trusted on its own). `buf` has eight bytes to spare past
        the last token: the comparison reads eight bytes at a time."""
        n_tokens = len(token_starts) - 1
        for j in range(1, n_tokens):  # the newline before every token but the first
            buf[_u(token_starts[_u(j)] - 1)] = 32  # shingles are space-joined
        most = 1
        for c in counts:
            most = max(most, c)
        cap = 1
        while cap < 2 * most:
            cap *= 2
        s_first = np.empty(cap, dtype=np.int64)
        s_hash = np.empty(cap, dtype=np.uint64)
        s_new = np.empty(most, dtype=np.uint64)
        distinct = 0
        first = 0
        for d in range(len(counts)):
            count = counts[_u(d)]
            size = 1
            while size < 2 * count:
                size *= 2
            mask = np.uint64(size - 1)
            span = min(count, ngram)
            shingles = count - ngram + 1 if count >= ngram else min(count, 1)
            s_first[:size] = -1
            kept = 0
            # The doc's shingle hashes first, in loops of their own over all its shingles (no
            # branch, so SIMD): a sum of independent multiplies, then one mix.
            for s in range(shingles):
                s_new[_u(s)] = np.uint64(span)
            for k in range(span):
                odd = _ODD[k]
                for s in range(shingles):
                    s_new[_u(s)] += token_hashes[_u(first + s + k)] * odd
            for s in range(shingles):
                s_new[_u(s)] = _mix(s_new[_u(s)])
            for f in range(first, first + shingles):
                h = s_new[_u(f - first)]
                slot = h & mask
                a = token_starts[_u(f)]
                length = token_starts[_u(f + span)] - 1 - a
                while True:
                    other = s_first[_u(slot)]
                    if other < 0:
                        s_first[_u(slot)] = f
                        s_hash[_u(slot)] = h
                        rep_start[_u(distinct)] = a
                        rep_len[_u(distinct)] = length
                        distinct += 1
                        kept += 1
                        break
                    if s_hash[_u(slot)] == h:
                        oa = token_starts[_u(other)]
                        if token_starts[_u(other + span)] - 1 - oa == length and same_bytes(
                            buf, oa, a, length
                        ):
                            break
                    slot = (slot + np.uint64(1)) & mask
            per_doc[_u(d)] = kept
            first += count
        return distinct


def shingle_counts(token_counts: np.ndarray, ngram: int) -> np.ndarray:
    """Shingles of each document with these token counts: one per n-gram, and one holding all
    the tokens of a document shorter than `ngram` (none for an empty document)."""
    return np.where(token_counts >= ngram, token_counts - ngram + 1, np.minimum(token_counts, 1))


def token_hashes_of(joined: np.ndarray, token_starts: np.ndarray) -> np.ndarray:
    """token_hash of every token of a newline-joined buffer, given where each starts (as
    dedup.lex.Lexed has them): for buffers the lexer did not write."""
    return _token_hashes(padded(joined), token_starts)


def hash_interned(
    buf: np.ndarray, counts: np.ndarray, ngram: int, token_starts: np.ndarray, token_hashes: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sha1_hash32, fingerprint, count per document) of the distinct shingles of each document
    (in order of first occurrence); `buf` holds the tokens joined by newlines, documents one
    after the other, as dedup.lex.lex_tokens writes them. Real code repeats many of its
    shingles, so hashing each distinct one once is the cheaper half of the work, and MinHash
    over distinct shingles equals MinHash over all of them. `token_starts`: where each token
    starts in `buf`, then len(buf) + 1, and `token_hashes` their token_hash (dedup.lex.Lexed
    has both; dedup.lex.token_index finds them in `buf`)."""
    counts = counts.astype(np.int64)
    per_doc = np.zeros(len(counts), dtype=np.int64)
    total = int(shingle_counts(counts, ngram).sum())
    rep_start = np.empty(total, dtype=np.int64)
    rep_len = np.empty(total, dtype=np.int64)
    data = padded(buf)
    distinct = _intern_shingles(data, counts, token_starts, token_hashes, ngram, rep_start, rep_len, per_doc)
    h32, fps = sha1_padded(data, len(buf), rep_start[:distinct], rep_len[:distinct])
    return h32, fps, per_doc
