#!/usr/bin/env python3
import os
import numpy as np

N, M = 4096, 4096


def gen_golden_data_simple():
    a = np.random.uniform(0, 1, [N]).astype(np.float32)
    b = np.random.uniform(0, 1, [N, M]).astype(np.float32)
    golden = (a[:, None] * b).astype(np.float32)   # == np.diag(a) @ b
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a.tofile("./input/input_a.bin")
    b.tofile("./input/input_b.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data_simple()
