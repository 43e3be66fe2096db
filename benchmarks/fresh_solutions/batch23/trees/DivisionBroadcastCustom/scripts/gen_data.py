#!/usr/bin/env python3
import os
import numpy as np


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.uniform(0, 1, (8, 3, 32, 128)).astype(np.float32)
    # keep divisors away from zero so the check is meaningful
    scale = np.random.uniform(0.05, 1, (3, 1, 1)).astype(np.float32)
    y = (x / scale).astype(np.float32)
    x.tofile("input/input_x.bin")
    scale.tofile("input/input_scale.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
