#!/usr/bin/env python3
import os
import numpy as np


def gen_golden_data():
    batch, dim = 1024, 32768
    x = np.random.uniform(-4.0, 4.0, (batch, dim)).astype(np.float32)
    golden = (x / (1.0 + np.abs(x))).astype(np.float32)
    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
