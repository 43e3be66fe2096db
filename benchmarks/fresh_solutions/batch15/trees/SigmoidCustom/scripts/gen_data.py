#!/usr/bin/python3
import os
import numpy as np

ROWS, COLS = 512, 16384


def gen_golden_data_simple():
    # torch.rand-like inputs, plus a few large-magnitude values to probe saturation
    x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    x[0, :16] = np.array([-100, -30, -10, -1, 0, 1, 10, 30, 100, -5, 5, -0.5, 0.5, -88, 88, 2],
                         dtype=np.float32)
    golden = (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(np.float32)
    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data_simple()
