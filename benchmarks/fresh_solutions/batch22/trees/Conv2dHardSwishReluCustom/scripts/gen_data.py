#!/usr/bin/env python3
import os
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

N, CI, H, W = 16, 8, 128, 128
CO, K = 64, 3

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = np.random.rand(N, CI, H, W).astype(np.float32)
bound = 1.0 / np.sqrt(CI * K * K)
weight = np.random.uniform(-bound, bound, (CO, CI, K, K)).astype(np.float32)
bias = np.random.uniform(-bound, bound, (CO,)).astype(np.float32)

patches = sliding_window_view(x, (K, K), axis=(2, 3))          # N, CI, Ho, Wo, K, K
z = np.einsum("nchwij,ocij->nohw", patches, weight, optimize=True) + bias[None, :, None, None]
gate = np.clip(z + 3.0, 0.0, 6.0) / 6.0
golden = np.maximum(z * gate, 0.0).astype(np.float32)

x.tofile("input/x.bin")
weight.tofile("input/weight.bin")
bias.tofile("input/bias.bin")
golden.tofile("output/golden.bin")
