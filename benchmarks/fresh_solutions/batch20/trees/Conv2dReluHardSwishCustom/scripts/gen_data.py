#!/usr/bin/env python3
import os
import numpy as np

N, CIN, COUT, H, W, K = 8, 8, 64, 128, 128, 3


def conv_valid(x, w, b):
    oh, ow = H - K + 1, W - K + 1
    out = np.broadcast_to(b[None, :, None, None], (x.shape[0], COUT, oh, ow)).astype(np.float32).copy()
    for kh in range(K):
        for kw in range(K):
            patch = x[:, :, kh:kh + oh, kw:kw + ow]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, kh, kw], optimize=True)
    return out


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    bound = 1.0 / np.sqrt(CIN * K * K)
    x = np.random.rand(N, CIN, H, W).astype(np.float32)
    w = np.random.uniform(-bound, bound, (COUT, CIN, K, K)).astype(np.float32)
    b = np.random.uniform(-bound, bound, COUT).astype(np.float32)
    y = np.maximum(conv_valid(x, w, b), 0.0)
    y = y * np.clip((y + 3.0) / 6.0, 0.0, 1.0)
    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    y.astype(np.float32).tofile("output/golden.bin")
