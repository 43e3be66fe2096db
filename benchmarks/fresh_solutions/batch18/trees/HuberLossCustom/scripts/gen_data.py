#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 4096, 32768

if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    scale = np.float32(np.random.rand())
    pred = (np.random.rand(ROWS, COLS).astype(np.float32) * scale).astype(np.float32)
    target = np.random.rand(ROWS, COLS).astype(np.float32)
    pred.tofile("input/pred.bin")
    target.tofile("input/target.bin")

    d = pred.astype(np.float64) - target.astype(np.float64)
    a = np.abs(d)
    loss = np.where(a < 1.0, 0.5 * d * d, a - 0.5).mean()
    np.array([loss], dtype=np.float32).tofile("output/golden.bin")
