#!/usr/bin/env python3
# Writes input/input_x.bin and output/golden.bin for volume_peak_pool.
# The volume is ~4 GiB, so it is produced and pooled one batch item at a time.
import os

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

N, C, D, H, W = 16, 32, 128, 128, 128
K, S, P = 3, 2, 1


def pool3d(v):
    padded = np.pad(v, ((0, 0), (P, P), (P, P), (P, P)), constant_values=-np.inf)
    win = sliding_window_view(padded, (K, K, K), axis=(1, 2, 3))[:, ::S, ::S, ::S]
    return win.max(axis=(-3, -2, -1)).astype(np.float32)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(5)
    with open("input/input_x.bin", "wb") as fx, open("output/golden.bin", "wb") as fy:
        for _ in range(N):
            vol = rng.random((C, D, H, W), dtype=np.float32)
            vol.tofile(fx)
            pool3d(vol).tofile(fy)


if __name__ == "__main__":
    main()
