#!/usr/bin/env python3
"""Inputs and golden output for grouped_deconv3d (numpy scatter-add reference)."""
import os
import numpy as np

N, CIN, COUT = 8, 32, 32
D, H, W = 12, 24, 48
K = (3, 5, 7)
S = (2, 2, 2)
P = (1, 2, 3)
OP = (1, 1, 1)
G = 4


def deconv3d(x, w):
    n, cin, d, h, wd = x.shape
    ocg = w.shape[1]
    icg = cin // G
    kd, kh, kw = K
    od = (d - 1) * S[0] - 2 * P[0] + kd + OP[0]
    oh = (h - 1) * S[1] - 2 * P[1] + kh + OP[1]
    ow = (wd - 1) * S[2] - 2 * P[2] + kw + OP[2]
    # full (unpadded) output, cropped afterwards
    fd = (d - 1) * S[0] + kd + OP[0]
    fh = (h - 1) * S[1] + kh + OP[1]
    fw = (wd - 1) * S[2] + kw + OP[2]
    full = np.zeros((n, G * ocg, fd, fh, fw), dtype=np.float64)
    for g in range(G):
        xg = x[:, g * icg:(g + 1) * icg]            # n, icg, d, h, w
        wg = w[g * icg:(g + 1) * icg]               # icg, ocg, kd, kh, kw
        for a in range(kd):
            for b in range(kh):
                for c in range(kw):
                    contrib = np.einsum("nidhw,io->nodhw", xg, wg[:, :, a, b, c])
                    full[:, g * ocg:(g + 1) * ocg,
                         a:a + (d - 1) * S[0] + 1:S[0],
                         b:b + (h - 1) * S[1] + 1:S[1],
                         c:c + (wd - 1) * S[2] + 1:S[2]] += contrib
    return full[:, :, P[0]:P[0] + od, P[1]:P[1] + oh, P[2]:P[2] + ow]


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, CIN, D, H, W).astype(np.float32)
    bound = 1.0 / np.sqrt((COUT // G) * K[0] * K[1] * K[2])
    w = np.random.uniform(-bound, bound, (CIN, COUT // G) + K).astype(np.float32)
    y = deconv3d(x.astype(np.float64), w.astype(np.float64)).astype(np.float32)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    y.tofile("output/golden.bin")
    print("golden shape", y.shape)
