#!/usr/bin/env python3
"""Input and golden output for bilinear_resample.

usage: gen_data.py [outH outW]   (defaults 200 300, must match the host args)
"""
import os
import sys

import numpy as np

N, C, H, W = 4, 128, 100, 150


def axis_table(in_len, out_len):
    scale = in_len / out_len
    src = (np.arange(out_len, dtype=np.float64) + 0.5) * scale - 0.5
    src = np.maximum(src, 0.0)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_len - 1)
    i1 = np.where(i0 < in_len - 1, i0 + 1, i0)
    frac = src - i0
    return i0, i1, frac


def resize(x, out_h, out_w):
    h0, h1, lh = axis_table(x.shape[2], out_h)
    w0, w1, lw = axis_table(x.shape[3], out_w)
    lh = lh[:, None]
    rows = x[:, :, h0, :] * (1.0 - lh) + x[:, :, h1, :] * lh
    return rows[:, :, :, w0] * (1.0 - lw) + rows[:, :, :, w1] * lw


def main():
    out_h, out_w = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) == 3 else (200, 300)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, C, H, W).astype(np.float32)
    y = resize(x.astype(np.float64), out_h, out_w).astype(np.float32)
    x.tofile("input/input_x.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
