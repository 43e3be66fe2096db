#!/usr/bin/env python3
"""x: [128, 32768] fp16, W: [32768, 32768] fp16 (Linear layout, out x in), b: fp32.
golden y = sum(sigmoid(x @ W.T + b), axis=1, keepdims=True)  -> [128, 1] fp32."""
import os
import numpy as np

M, K, N = 128, 32768, 32768
CHUNK = 2048  # rows of W generated / multiplied at a time (W is 2 GB in fp16)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(1234)
    bound = 1.0 / np.sqrt(K)

    x = rng.random((M, K), dtype=np.float32).astype(np.float16)
    b = rng.uniform(-bound, bound, N).astype(np.float32)
    x32 = x.astype(np.float32)
    y = np.zeros((M, 1), dtype=np.float64)

    with open("input/w.bin", "wb") as fw:
        for r0 in range(0, N, CHUNK):
            w = rng.uniform(-bound, bound, (CHUNK, K)).astype(np.float16)
            w.tofile(fw)
            z = x32 @ w.astype(np.float32).T + b[r0:r0 + CHUNK]
            y += (1.0 / (1.0 + np.exp(-z))).sum(axis=1, keepdims=True)

    x.tofile("input/x.bin")
    b.tofile("input/b.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
