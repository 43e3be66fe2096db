#!/usr/bin/env python3
import os
import numpy as np

N, C, H, W = 2, 16, 512, 512
K = 11
S = K


def box_mean(x):
    oh = (H - K) // S + 1
    ow = (W - K) // S + 1
    out = np.zeros((N, C, oh, ow), dtype=np.float64)
    for i in range(K):
        for j in range(K):
            out += x[:, :, i:i + (oh - 1) * S + 1:S, j:j + (ow - 1) * S + 1:S]
    return out / (K * K)


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, C, H, W).astype(np.float32)
    x.tofile("input/input_x.bin")
    box_mean(x.astype(np.float64)).astype(np.float32).tofile("output/golden.bin")
