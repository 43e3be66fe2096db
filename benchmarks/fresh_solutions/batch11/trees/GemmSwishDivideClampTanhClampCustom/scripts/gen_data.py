#!/usr/bin/env python3
import os
import numpy as np

M, K, N = 1024, 8192, 8192


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(2024)
    x = rng.random((M, K), dtype=np.float32)
    bound = 1.0 / np.sqrt(K)
    w = rng.uniform(-bound, bound, size=(N, K)).astype(np.float32)   # linear weight (out, in)
    b = rng.uniform(-bound, bound, size=(N,)).astype(np.float32)

    z = x @ w.T + b
    z = z / (1.0 + np.exp(-z))          # swish
    z = np.clip(z / 2.0, -1.0, 1.0)
    z = np.clip(np.tanh(z), -1.0, 1.0)

    x.tofile("input/x.bin")
    np.ascontiguousarray(w.T).tofile("input/w_t.bin")   # kernel reads B as (K, N)
    b.tofile("input/bias.bin")
    z.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
