#!/usr/bin/env python3
import os
import numpy as np

N, C, H, W = 16, 64, 512, 512
K = 11
S = 11


def gen():
    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    x = np.random.uniform(0.0, 1.0, (N, C, H, W)).astype(np.float32)
    oh = (H - K) // S + 1
    ow = (W - K) // S + 1
    # stride == window, so the pooled region can be reshaped into blocks
    crop = x[:, :, :oh * K, :ow * K].reshape(N, C, oh, K, ow, K)
    golden = crop.astype(np.float64).mean(axis=(3, 5)).astype(np.float32)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen()
