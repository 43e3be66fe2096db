#!/usr/bin/env python3
"""Inputs and golden for row_index_pick (gather along the last axis)."""
import os
import numpy as np

ROWS, SRC_COLS, IDX_COLS = 128, 8192, 4096


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    src = np.random.rand(ROWS, SRC_COLS).astype(np.float32)
    index = np.random.randint(0, SRC_COLS, size=(ROWS, IDX_COLS)).astype(np.int64)
    golden = np.take_along_axis(src, index, axis=1)
    src.tofile("input/src.bin")
    index.tofile("input/index.bin")
    golden.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
