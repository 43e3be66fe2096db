#!/usr/bin/env python3
# Inputs and golden for dense_pairmax_rowsum. The 32768 x 32768 weight (4 GiB)
# is generated and consumed in row blocks so the script stays within memory.
import os
import numpy as np

M, K, N = 128, 32768, 32768
SCALE = 0.5
BLOCK = 2048

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(3)

x = rng.random((M, K), dtype=np.float32)
bound = 1.0 / np.sqrt(K)
bias = rng.uniform(-bound, bound, N).astype(np.float32)
x.tofile("input/x.bin")
bias.tofile("input/bias.bin")

acc = np.zeros(M, dtype=np.float64)
with open("input/w.bin", "wb") as fw:
    for n0 in range(0, N, BLOCK):
        w_blk = rng.uniform(-bound, bound, (BLOCK, K)).astype(np.float32)
        w_blk.tofile(fw)
        z = x @ w_blk.T + bias[n0:n0 + BLOCK]          # [M, BLOCK]
        pooled = np.maximum(z[:, 0::2], z[:, 1::2])      # window 2, stride 2
        acc += pooled.sum(axis=1, dtype=np.float64)

golden = (acc * SCALE).astype(np.float32)
golden.tofile("output/golden.bin")
