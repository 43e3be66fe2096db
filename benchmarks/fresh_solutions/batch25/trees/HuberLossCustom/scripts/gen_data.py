#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 4096, 32768


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    scale = np.float32(np.random.rand())
    pred = (np.random.rand(ROWS, COLS).astype(np.float32) * scale).astype(np.float32)
    target = np.random.rand(ROWS, COLS).astype(np.float32)

    d = np.abs(pred.astype(np.float64) - target.astype(np.float64))
    per_elem = np.where(d < 1.0, 0.5 * d * d, d - 0.5)
    golden = np.array([per_elem.mean()], dtype=np.float32)

    pred.tofile("input/pred.bin")
    target.tofile("input/target.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
