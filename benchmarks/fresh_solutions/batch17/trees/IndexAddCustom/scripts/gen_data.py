#!/usr/bin/env python3
import os
import numpy as np

DST_ROWS, COLS, SRC_ROWS = 1024, 4096, 8192


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.zeros((DST_ROWS, COLS), dtype=np.float32)
    index = np.random.randint(0, DST_ROWS, size=(SRC_ROWS,)).astype(np.int64)
    src = np.random.rand(SRC_ROWS, COLS).astype(np.float32)

    golden = x.copy()
    np.add.at(golden, index, src)  # unbuffered: repeated indices accumulate

    x.tofile("input/x.bin")
    index.tofile("input/index.bin")
    src.tofile("input/src.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
