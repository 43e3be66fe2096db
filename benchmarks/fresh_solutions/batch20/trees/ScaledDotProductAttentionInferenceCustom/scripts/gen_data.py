#!/usr/bin/env python3
"""Q, K, V inputs and golden softmax(Q K^T / sqrt(D)) V for dense_softmax_attend."""
import os
import numpy as np

B, S, D = 1, 2048, 4096


def softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    q = np.random.rand(B, S, D).astype(np.float32)
    k = np.random.rand(B, S, D).astype(np.float32)
    v = np.random.rand(B, S, D).astype(np.float32)
    logits = np.matmul(q, k.transpose(0, 2, 1)) / np.sqrt(D)
    out = np.matmul(softmax(logits), v).astype(np.float32)
    q.tofile("input/q.bin")
    k.tofile("input/k.bin")
    v.tofile("input/v.bin")
    out.tofile("output/golden.bin")
