#!/usr/bin/env python3
import os
import numpy as np

N, C, H, W, F = 16, 128, 32, 32, 4

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.rand(N, C, H, W).astype(np.float32)
# each pixel becomes an F x F block
golden = np.repeat(np.repeat(x, F, axis=2), F, axis=3)
x.tofile("input/x.bin")
golden.astype(np.float32).tofile("output/golden.bin")
