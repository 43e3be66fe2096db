#!/usr/bin/env python3
"""Inputs and golden output for grouped_swish_dense (M=512, K=4096, N=8192, 256 groups)."""
import os
import numpy as np

M, K, N, GROUPS, EPS = 512, 4096, 8192, 256, 1e-5


def silu(v):
    return v / (1.0 + np.exp(-v))


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(7)
    bound = 1.0 / np.sqrt(K)
    x = rng.random((M, K), dtype=np.float32)
    w = rng.uniform(-bound, bound, (N, K)).astype(np.float32)
    bias = rng.uniform(-bound, bound, N).astype(np.float32)
    gamma = np.ones(N, np.float32)
    beta = np.zeros(N, np.float32)
    scale_vec = rng.standard_normal(N).astype(np.float32)
    for name, arr in (("x", x), ("w", w), ("bias", bias), ("gamma", gamma),
                      ("beta", beta), ("scale_vec", scale_vec)):
        arr.tofile(f"input/{name}.bin")

    h = x.astype(np.float64) @ w.T.astype(np.float64) + bias
    g = h.reshape(M, GROUPS, -1)
    g = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + EPS)
    g = g.reshape(M, N) * gamma + beta
    out = silu(silu(g) * scale_vec)
    out.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
