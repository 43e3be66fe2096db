#!/usr/bin/env python3
"""Generate input and golden output for logistic_squash."""
import os
import numpy as np

ROWS, COLS = 4096, 4096


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    golden = (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(np.float32)
    x.tofile("input/x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
