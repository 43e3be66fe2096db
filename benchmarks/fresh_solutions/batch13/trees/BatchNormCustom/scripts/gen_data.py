#!/usr/bin/env python3
"""Inputs and golden output for channel_batch_standardize (NCHW, batch statistics)."""
import os
import numpy as np

N, C, H, W = 16, 64, 128, 128
EPS = 1e-5


def main():
    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    rng = np.random.default_rng(0)

    x = rng.random((N, C, H, W), dtype=np.float32)
    gamma = np.ones(C, dtype=np.float32)   # freshly initialised affine params
    beta = np.zeros(C, dtype=np.float32)

    x64 = x.astype(np.float64)
    mean = x64.mean(axis=(0, 2, 3), keepdims=True)
    var = x64.var(axis=(0, 2, 3), keepdims=True)
    y = (x64 - mean) / np.sqrt(var + EPS)
    y = y * gamma.reshape(1, C, 1, 1) + beta.reshape(1, C, 1, 1)

    x.tofile("./input/input_x.bin")
    gamma.tofile("./input/input_gamma.bin")
    beta.tofile("./input/input_beta.bin")
    y.astype(np.float32).tofile("./output/golden.bin")


if __name__ == "__main__":
    main()
