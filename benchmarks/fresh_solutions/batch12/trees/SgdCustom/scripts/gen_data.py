#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 1024, 4096
MU, LR = 0.9, 1e-2


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    param = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    grad = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
    velocity = np.zeros((ROWS, COLS), dtype=np.float32)

    v_new = np.float32(MU) * velocity + grad
    golden = (param - np.float32(LR) * v_new).astype(np.float32)

    param.tofile("input/param.bin")
    grad.tofile("input/grad.bin")
    velocity.tofile("input/velocity.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
