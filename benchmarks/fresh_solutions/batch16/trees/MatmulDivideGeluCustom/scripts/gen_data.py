#!/usr/bin/env python3
"""Inputs and golden output for dense_scaled_gelu."""
import math
import os

import numpy as np

ROWS, IN_F, OUT_F = 1024, 8192, 8192
DIVISOR = 10.0


def erf(v):
    # vectorised math.erf, precise enough for a golden reference
    return np.vectorize(math.erf, otypes=[np.float64])(v)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(2024)
    bound = 1.0 / math.sqrt(IN_F)
    x = rng.random((ROWS, IN_F), dtype=np.float32)
    w = rng.uniform(-bound, bound, (OUT_F, IN_F)).astype(np.float32)
    b = rng.uniform(-bound, bound, (OUT_F,)).astype(np.float32)

    h = (x.astype(np.float64) @ w.T.astype(np.float64) + b) / DIVISOR
    golden = (0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))).astype(np.float32)

    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    b.tofile("input/b.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
