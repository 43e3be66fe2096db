#!/usr/bin/env python3
import os
import numpy as np

B, C, L = 64, 192, 2048
K, P = 8, 4


def sliding_max(x):
    padded = np.pad(x, ((0, 0), (0, 0), (P, P)), constant_values=-np.inf)
    out_len = L + 2 * P - K + 1
    out = padded[:, :, 0:out_len].copy()
    for k in range(1, K):
        np.maximum(out, padded[:, :, k:k + out_len], out=out)
    return out


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(B, C, L).astype(np.float32)
    sliding_max(x).astype(np.float32).tofile("output/golden.bin")
    x.tofile("input/input_x.bin")
