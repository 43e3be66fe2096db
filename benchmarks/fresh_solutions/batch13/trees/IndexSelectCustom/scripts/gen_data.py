#!/usr/bin/env python3
# x: [256, 8192] float32, idx: [2048] int64 in [0, 8192); golden = x[:, idx]
import os
import numpy as np

ROWS, COLS, PICKS = 256, 8192, 2048


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(ROWS, COLS).astype(np.float32)
    idx = np.random.randint(0, COLS, size=(PICKS,)).astype(np.int64)
    golden = np.take(x, idx, axis=1).astype(np.float32)
    x.tofile("input/input_x.bin")
    idx.tofile("input/input_idx.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
