#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 64, 131072


def gen_golden_data():
    x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    xd = x.astype(np.float64)
    m = xd.max(axis=1, keepdims=True)
    golden = xd - m - np.log(np.exp(xd - m).sum(axis=1, keepdims=True))
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    golden.astype(np.float32).tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
