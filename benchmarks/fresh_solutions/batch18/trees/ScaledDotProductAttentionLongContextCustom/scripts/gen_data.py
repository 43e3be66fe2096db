#!/usr/bin/env python3
"""Q, K, V and the golden attention output (computed in query blocks so the
full score matrix is never held at once)."""
import os
import numpy as np

B, S, D = 1, 16384, 12288
QBLOCK = 1024


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    q = np.random.rand(B, S, D).astype(np.float32)
    k = np.random.rand(B, S, D).astype(np.float32)
    v = np.random.rand(B, S, D).astype(np.float32)
    q.tofile("input/q.bin")
    k.tofile("input/k.bin")
    v.tofile("input/v.bin")

    out = np.empty_like(q)
    scale = 1.0 / np.sqrt(D)
    for b in range(B):
        for s0 in range(0, S, QBLOCK):
            s = (q[b, s0:s0 + QBLOCK] @ k[b].T) * scale
            s -= s.max(axis=1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(axis=1, keepdims=True)
            out[b, s0:s0 + QBLOCK] = p @ v[b]
    out.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
