#!/usr/bin/env python3
"""x: [2048, 8192] uniform [0, 1); golden y[r, j] = sum of x[r, j:]"""
import os
import numpy as np

ROWS, COLS = 2048, 8192

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = np.random.rand(ROWS, COLS).astype(np.float32)
# accumulate in float64 so the reference is not the weak link
y = np.cumsum(x[:, ::-1].astype(np.float64), axis=1)[:, ::-1]

x.tofile("input/input_x.bin")
np.ascontiguousarray(y, dtype=np.float32).tofile("output/golden.bin")
