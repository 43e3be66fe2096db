#!/usr/bin/env python3
import os
import numpy as np

B, H, S, D = 2, 4, 512, 1024


def reference(q, k, v):
    s = np.matmul(q.astype(np.float64), np.swapaxes(k, -1, -2).astype(np.float64)) / np.sqrt(D)
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    return np.matmul(p, v.astype(np.float64)).astype(np.float32)


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    q = np.random.rand(B, H, S, D).astype(np.float32)
    k = np.random.rand(B, H, S, D).astype(np.float32)
    v = np.random.rand(B, H, S, D).astype(np.float32)
    q.tofile("input/q.bin")
    k.tofile("input/k.bin")
    v.tofile("input/v.bin")
    reference(q, k, v).tofile("output/golden.bin")
