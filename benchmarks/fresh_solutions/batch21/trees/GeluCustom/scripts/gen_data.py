#!/usr/bin/env python3
import math
import os

import numpy as np

ROWS, COLS = 512, 8192


def main():
    x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    xd = x.astype(np.float64)
    erf = np.vectorize(math.erf)
    golden = (0.5 * xd * (1.0 + erf(xd / math.sqrt(2.0)))).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
