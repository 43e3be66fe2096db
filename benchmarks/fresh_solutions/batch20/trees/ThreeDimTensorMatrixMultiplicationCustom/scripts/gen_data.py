#!/usr/bin/env python3
# A: [B, M, K], W: [K, L]; golden C = A @ W with shape [B, M, L] (float32)
import os
import numpy as np

B, M, K, L = 16, 1024, 2048, 768


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a = np.random.rand(B, M, K).astype(np.float32)
    w = np.random.rand(K, L).astype(np.float32)
    c = np.matmul(a.reshape(B * M, K), w).reshape(B, M, L)
    a.tofile("input/a.bin")
    w.tofile("input/w.bin")
    c.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
