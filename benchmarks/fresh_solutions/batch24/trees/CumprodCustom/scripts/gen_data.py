#!/usr/bin/env python3
"""Inputs and golden output for row_running_product."""
import os
import numpy as np

ROWS, COLS = 32768, 32768


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    x.tofile("input/input_x.bin")
    # float32 accumulation in order, same as the kernel's scalar scan
    golden = np.cumprod(x, axis=1, dtype=np.float32)
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
