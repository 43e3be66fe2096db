#!/usr/bin/env python3
import os
import numpy as np

B, K, N = 1024, 8192, 8192
SCALING = 1.5

if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(B, K).astype(np.float32)
    w = np.random.randn(N, K).astype(np.float32)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    # straightforward definition (full product, halve, row sum, scale) in float64
    y = (x.astype(np.float64) @ w.astype(np.float64).T) / 2.0
    y = y.sum(axis=1, keepdims=True) * SCALING
    y.astype(np.float32).tofile("output/golden.bin")
