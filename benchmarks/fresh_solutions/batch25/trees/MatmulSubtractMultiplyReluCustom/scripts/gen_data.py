#!/usr/bin/env python3
import os
import numpy as np

M, K, N = 1024, 8192, 8192
SHIFT, GAIN = 2.0, 1.5

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

lim = 1.0 / np.sqrt(K)
x = np.random.uniform(0, 1, (M, K)).astype(np.float32)
w = np.random.uniform(-lim, lim, (N, K)).astype(np.float32)   # [out, in]
b = np.random.uniform(-lim, lim, (N,)).astype(np.float32)

y = x @ w.T + b
y = np.maximum((y - SHIFT) * GAIN, 0.0).astype(np.float32)

x.tofile("input/x.bin")
w.tofile("input/w.bin")
b.tofile("input/b.bin")
y.tofile("output/golden.bin")
