#!/usr/bin/env python3
import os
import numpy as np

N, CIN, H, W, COUT, K, SCALE = 64, 64, 256, 256, 128, 3, 2.0

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.rand(N, CIN, H, W).astype(np.float32)
bound = 1.0 / np.sqrt(CIN * K * K)
w = np.random.uniform(-bound, bound, (COUT, CIN, K, K)).astype(np.float32)
b = np.random.uniform(-bound, bound, COUT).astype(np.float32)
x.tofile("input/x.bin")
w.tofile("input/w.bin")
b.tofile("input/b.bin")

OH, OW = H - K + 1, W - K + 1
with open("output/golden.bin", "wb") as f:
    for n in range(N):
        acc = np.broadcast_to(b[:, None, None], (COUT, OH, OW)).copy()
        for kh in range(K):
            for kw in range(K):
                acc += np.tensordot(w[:, :, kh, kw], x[n, :, kh:kh + OH, kw:kw + OW], axes=([1], [0]))
        (acc * SCALE).min(axis=0, keepdims=True).astype(np.float32).tofile(f)
