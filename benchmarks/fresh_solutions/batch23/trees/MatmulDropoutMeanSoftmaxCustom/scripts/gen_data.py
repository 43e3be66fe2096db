#!/usr/bin/env python3
"""Inputs and golden output for dense_row_softmax (affine map + row softmax)."""
import os
import numpy as np

M, K, N = 128, 2048, 2048


def main():
    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    rng = np.random.default_rng(7)
    bound = 1.0 / np.sqrt(K)
    x = rng.random((M, K), dtype=np.float32)
    w = rng.uniform(-bound, bound, (N, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (N,)).astype(np.float32)

    logits = x.astype(np.float64) @ w.T.astype(np.float64) + b
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    golden = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    x.tofile("./input/input_x.bin")
    w.tofile("./input/input_w.bin")
    b.tofile("./input/input_b.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    main()
