#!/usr/bin/env python3
"""x, weight and golden output for strided_dilated_upconv3d."""
import os
import numpy as np

N, CI, CO = 16, 32, 64
D, H, W = 16, 32, 32
K, S, P, DIL = 3, 2, 1, 2


def upconv3d(x, w):
    n, ci, d, h, wd = x.shape
    co = w.shape[1]
    fd = (d - 1) * S + DIL * (K - 1) + 1
    fh = (h - 1) * S + DIL * (K - 1) + 1
    fw = (wd - 1) * S + DIL * (K - 1) + 1
    full = np.zeros((n, co, fd, fh, fw), dtype=np.float64)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                part = np.tensordot(x, w[:, :, kd, kh, kw], axes=([1], [0]))  # n d h w co
                part = np.moveaxis(part, -1, 1)
                d0, h0, w0 = kd * DIL, kh * DIL, kw * DIL
                full[:, :, d0:d0 + (d - 1) * S + 1:S, h0:h0 + (h - 1) * S + 1:S,
                     w0:w0 + (wd - 1) * S + 1:S] += part
    return full[:, :, P:fd - P, P:fh - P, P:fw - P]


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, CI, D, H, W).astype(np.float32)
    bound = 1.0 / np.sqrt(CO * K ** 3)
    w = np.random.uniform(-bound, bound, (CI, CO, K, K, K)).astype(np.float32)
    y = upconv3d(x, w).astype(np.float32)     # [16, 64, 33, 65, 65]
    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
