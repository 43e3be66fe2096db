#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 1024, 4096
LR, EPS = 1e-2, 1e-10


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    param = np.random.rand(ROWS, COLS).astype(np.float32)
    grad = np.random.rand(ROWS, COLS).astype(np.float32)
    accum = np.zeros((ROWS, COLS), dtype=np.float32)

    accum_new = accum + grad * grad
    param_new = param - LR * grad / (np.sqrt(accum_new) + EPS)

    param.tofile("input/param.bin")
    grad.tofile("input/grad.bin")
    accum.tofile("input/accum.bin")
    param_new.astype(np.float32).tofile("output/golden_param.bin")
    accum_new.astype(np.float32).tofile("output/golden_accum.bin")


if __name__ == "__main__":
    main()
