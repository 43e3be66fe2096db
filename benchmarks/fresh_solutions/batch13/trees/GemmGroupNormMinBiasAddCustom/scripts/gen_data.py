#!/usr/bin/env python3
"""
Inputs / golden for dense_groupnorm_rowmin_spread.
x [1024, 1024], W [2048, 1024], b [2048], gamma/beta [2048], shift [2048]
golden out [1, 2048, 1024, 1]
"""
import os
import numpy as np

M, K, N, G = 1024, 1024, 2048, 128
EPS = 1e-5


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(2024)
    bound = 1.0 / np.sqrt(K)

    x = rng.random((M, K), dtype=np.float32)
    w = rng.uniform(-bound, bound, (N, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (N,)).astype(np.float32)
    gamma = np.ones(N, dtype=np.float32)
    beta = np.zeros(N, dtype=np.float32)
    shift = rng.standard_normal(N).astype(np.float32)

    h = x.astype(np.float64) @ w.astype(np.float64).T + b
    hg = h.reshape(M, G, N // G)
    mu = hg.mean(axis=2, keepdims=True)
    var = hg.var(axis=2, keepdims=True)
    hn = ((hg - mu) / np.sqrt(var + EPS)).reshape(M, N) * gamma + beta
    row_min = hn.min(axis=1, keepdims=True)              # [M, 1]
    out = row_min + shift.reshape(1, N, 1, 1)            # -> [1, N, M, 1]

    x.tofile("input/input_x.bin")
    w.tofile("input/input_w.bin")
    b.tofile("input/input_b.bin")
    gamma.tofile("input/input_gamma.bin")
    beta.tofile("input/input_beta.bin")
    shift.tofile("input/input_shift.bin")
    out.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
