#!/usr/bin/env python3
"""Test data for dense_sigmoid_rowtotal: out = sigmoid(x @ w.T + b).sum(axis=1, keepdims=True)."""
import os
import numpy as np

ROWS, IN_F, OUT_F = 128, 4096, 8192

if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(3)
    lim = 1.0 / np.sqrt(IN_F)
    x = rng.random((ROWS, IN_F), dtype=np.float32)
    w = rng.uniform(-lim, lim, (OUT_F, IN_F)).astype(np.float32)
    b = rng.uniform(-lim, lim, OUT_F).astype(np.float32)
    pre = x.astype(np.float64) @ w.T.astype(np.float64) + b
    golden = (1.0 / (1.0 + np.exp(-pre))).sum(axis=1, keepdims=True).astype(np.float32)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    b.tofile("input/b.bin")
    golden.tofile("output/golden.bin")
