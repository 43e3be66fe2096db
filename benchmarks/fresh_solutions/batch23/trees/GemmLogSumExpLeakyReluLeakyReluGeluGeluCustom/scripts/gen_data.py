#!/usr/bin/env python3
import math
import os

import numpy as np

M, K, N = 256, 4096, 4096
SLOPE = 0.01


def leaky(v):
    return np.where(v >= 0, v, v * SLOPE)


def gelu(v):
    erf = np.vectorize(math.erf)
    return 0.5 * v * (1.0 + erf(v / math.sqrt(2.0)))


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    np.random.seed(11)
    lim = 1.0 / math.sqrt(K)
    x = np.random.rand(M, K).astype(np.float32)
    w = np.random.uniform(-lim, lim, (N, K)).astype(np.float32)
    b = np.random.uniform(-lim, lim, (N,)).astype(np.float32)

    z = x.astype(np.float64) @ w.T.astype(np.float64) + b
    zmax = z.max(axis=1, keepdims=True)
    lse = zmax + np.log(np.exp(z - zmax).sum(axis=1, keepdims=True))
    y = gelu(gelu(leaky(leaky(lse)))).astype(np.float32)  # shape (M, 1)

    x.tofile("input/input_x.bin")
    w.tofile("input/input_w.bin")
    b.tofile("input/input_b.bin")
    y.tofile("output/golden.bin")
