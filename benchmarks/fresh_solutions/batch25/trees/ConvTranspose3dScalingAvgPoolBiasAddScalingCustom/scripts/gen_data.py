#!/usr/bin/env python3
"""Inputs and numpy golden for upconv3d_pool_affine."""
import os
import numpy as np

B, CI, CO = 128, 3, 16
D, H, W = 16, 32, 32
K, S, P = 3, 2, 1
SCALE1, SCALE2 = 0.5, 1.0


def conv_transpose3d(x, w, b):
    n, ci, d, h, wd = x.shape
    co = w.shape[1]
    full = np.zeros((n, co, (d - 1) * S + K, (h - 1) * S + K, (wd - 1) * S + K), dtype=np.float32)
    # scatter form: every input voxel adds w[ci, :, kd, kh, kw] at stride S
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                contrib = np.einsum("ncdhw,co->nodhw", x, w[:, :, kd, kh, kw])
                full[:, :, kd:kd + (d - 1) * S + 1:S, kh:kh + (h - 1) * S + 1:S,
                     kw:kw + (wd - 1) * S + 1:S] += contrib
    out = full[:, :, P:full.shape[2] - P, P:full.shape[3] - P, P:full.shape[4] - P]
    return out + b.reshape(1, co, 1, 1, 1)


def avg_pool3d_2(t):
    n, c, d, h, w = t.shape
    d2, h2, w2 = d // 2, h // 2, w // 2
    t = t[:, :, :d2 * 2, :h2 * 2, :w2 * 2].reshape(n, c, d2, 2, h2, 2, w2, 2)
    return t.mean(axis=(3, 5, 7))


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(B, CI, D, H, W).astype(np.float32)
    bound = 1.0 / np.sqrt(CO * K * K * K)
    weight = np.random.uniform(-bound, bound, (CI, CO, K, K, K)).astype(np.float32)
    conv_bias = np.random.uniform(-bound, bound, (CO,)).astype(np.float32)
    bias = np.random.randn(CO).astype(np.float32)

    y = conv_transpose3d(x, weight, conv_bias) * SCALE1
    y = avg_pool3d_2(y)
    y = (y + bias.reshape(1, CO, 1, 1, 1)) * SCALE2

    x.tofile("input/input_x.bin")
    weight.tofile("input/input_weight.bin")
    conv_bias.tofile("input/input_conv_bias.bin")
    bias.tofile("input/input_bias.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
