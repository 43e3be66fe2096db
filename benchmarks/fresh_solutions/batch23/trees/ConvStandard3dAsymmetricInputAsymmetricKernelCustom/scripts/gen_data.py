#!/usr/bin/env python3
"""Random volume + filter bank and the valid-mode correlation result."""
import os
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

N, CIN, COUT = 2, 3, 64
D, H, W = 16, 128, 128
KD, KH, KW = 3, 5, 7

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

rng = np.random.default_rng(2024)
x = rng.random((N, CIN, D, H, W), dtype=np.float32)
bound = 1.0 / np.sqrt(CIN * KD * KH * KW)
w = rng.uniform(-bound, bound, (COUT, CIN, KD, KH, KW)).astype(np.float32)

# windows: (N, CIN, OD, OH, OW, KD, KH, KW)
win = sliding_window_view(x, (KD, KH, KW), axis=(2, 3, 4))
y = np.einsum("ncdhwijk,ocijk->nodhw", win, w, optimize=True).astype(np.float32)

x.tofile("input/input_x.bin")
w.tofile("input/input_w.bin")
y.tofile("output/golden.bin")
