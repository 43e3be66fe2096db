#!/usr/bin/env python3
# Data for dilated_upconv1d: x [8, 32, 16384], w [32, 64, 3]; stride 2, pad 1, dilation 2, no bias.
import os
import numpy as np

B, CIN, COUT, L = 8, 32, 64, 16384
K, STRIDE, PAD, DIL = 3, 2, 1, 2


def upconv1d(x, w):
    b, cin, length = x.shape
    cout = w.shape[1]
    full_len = (length - 1) * STRIDE + DIL * (K - 1) + 1
    full = np.zeros((b, cout, full_len), dtype=np.float64)
    for k in range(K):
        # every input position i lands on i*STRIDE + k*DIL before cropping the padding
        contrib = np.einsum("bcl,co->bol", x, w[:, :, k])
        full[:, :, k * DIL: k * DIL + (length - 1) * STRIDE + 1: STRIDE] += contrib
    out_len = (length - 1) * STRIDE - 2 * PAD + DIL * (K - 1) + 1
    return full[:, :, PAD:PAD + out_len]


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(B, CIN, L).astype(np.float32)
    bound = 1.0 / np.sqrt(COUT * K)
    w = np.random.uniform(-bound, bound, (CIN, COUT, K)).astype(np.float32)
    y = upconv1d(x.astype(np.float64), w.astype(np.float64)).astype(np.float32)
    x.tofile("input/input_x.bin")
    w.tofile("input/input_w.bin")
    y.tofile("output/golden.bin")
    print("golden shape", y.shape)
