#!/usr/bin/env python3
# Data for dense_batch_standardize: linear layer, per-feature scale, then
# batch normalisation using the statistics of the current batch.
import os
import numpy as np

M, K, N = 16384, 4096, 4096
EPS = 1e-5


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(0)
    bound = 1.0 / np.sqrt(K)
    x = rng.random((M, K), dtype=np.float32)
    w = rng.uniform(-bound, bound, (N, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (N,)).astype(np.float32)
    s = rng.standard_normal(N).astype(np.float32)
    gamma = np.ones(N, dtype=np.float32)
    beta = np.zeros(N, dtype=np.float32)

    y = x @ w.T + b
    z = (y * s).astype(np.float64)
    mean = z.mean(axis=0)
    var = z.var(axis=0)                     # biased, as used for normalisation
    out = gamma * (z - mean) / np.sqrt(var + EPS) + beta

    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    s.tofile("input/scale.bin")
    gamma.tofile("input/gamma.bin")
    beta.tofile("input/beta.bin")
    out.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
