#!/usr/bin/env python3
"""Inputs and golden output for row_running_product (prefix product over axis 1)."""
import os
import numpy as np

ROWS, COLS = 2048, 32768


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    golden = np.multiply.accumulate(x, axis=1, dtype=np.float32)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
