#!/usr/bin/python3
# input/x.bin (M,K), input/weight.bin (N,K), input/bias.bin (N) and output/golden.bin (M,1)
import os
import math
import numpy as np

M, K, N = 256, 2048, 4096
SLOPE = 0.01


def erf(v):
    return np.vectorize(math.erf)(v)


def gelu(v):
    return 0.5 * v * (1.0 + erf(v / math.sqrt(2.0)))


def leaky(v):
    return np.where(v >= 0, v, v * SLOPE)


if __name__ == "__main__":
    rng = np.random.default_rng(2024)
    bound = 1.0 / math.sqrt(K)
    x = rng.random((M, K), dtype=np.float32)
    w = rng.uniform(-bound, bound, (N, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (N,)).astype(np.float32)

    y = x.astype(np.float64) @ w.astype(np.float64).T + b
    mx = y.max(axis=1, keepdims=True)
    s = np.log(np.exp(y - mx).sum(axis=1, keepdims=True)) + mx
    s = gelu(gelu(leaky(leaky(s))))

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    s.astype(np.float32).tofile("output/golden.bin")
