#!/usr/bin/env python3
"""Inputs and golden output for conv3x3 (valid) -> mish -> batch norm (batch statistics)."""
import os
import numpy as np

N, CIN, COUT, H, W, K = 64, 64, 128, 128, 128, 3
EPS = 1e-5


def conv2d_valid(x, w, b):
    oh, ow = x.shape[2] - K + 1, x.shape[3] - K + 1
    out = np.empty((x.shape[0], w.shape[0], oh, ow), dtype=np.float32)
    wmat = w.reshape(w.shape[0], -1)
    for n in range(x.shape[0]):
        # im2col for one image: (CIN*K*K, OH*OW)
        cols = np.empty((CIN, K, K, oh, ow), dtype=np.float32)
        for kh in range(K):
            for kw in range(K):
                cols[:, kh, kw] = x[n, :, kh:kh + oh, kw:kw + ow]
        out[n] = (wmat @ cols.reshape(CIN * K * K, -1)).reshape(-1, oh, ow)
    return out + b.reshape(1, -1, 1, 1)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(0)
    x = rng.random((N, CIN, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(CIN * K * K)
    w = rng.uniform(-bound, bound, (COUT, CIN, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, COUT).astype(np.float32)
    gamma = np.ones(COUT, dtype=np.float32)
    beta = np.zeros(COUT, dtype=np.float32)

    y = conv2d_valid(x, w, b)
    y = y * np.tanh(np.logaddexp(0.0, y))  # mish
    mean = y.mean(axis=(0, 2, 3), keepdims=True)
    var = y.var(axis=(0, 2, 3), keepdims=True)
    y = (y - mean) / np.sqrt(var + EPS) * gamma.reshape(1, -1, 1, 1) + beta.reshape(1, -1, 1, 1)

    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    gamma.tofile("input/gamma.bin")
    beta.tofile("input/beta.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
