#!/usr/bin/env python3
"""Inputs + golden for volume_upsample_rownorm_gelu (numpy only)."""
import math
import os

import numpy as np

N, CIN, COUT = 2, 32, 64
D, H, W = 16, 32, 32
K, STRIDE, PAD = 4, 2, 1
EPS, SCALE = 1e-5, 1.0


def upsample_conv3d(x, w, b):
    n, cin, d, h, wd = x.shape
    cout = w.shape[1]
    full = np.zeros((n, cout, (d - 1) * STRIDE + K, (h - 1) * STRIDE + K, (wd - 1) * STRIDE + K))
    # scatter every kernel tap: out[.., i*s + k, ..] += x[.., i, ..] * w[ci, co, k]
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                contrib = np.einsum("ncdhw,co->nodhw", x, w[:, :, kd, kh, kw])
                full[:, :,
                     kd:kd + (d - 1) * STRIDE + 1:STRIDE,
                     kh:kh + (h - 1) * STRIDE + 1:STRIDE,
                     kw:kw + (wd - 1) * STRIDE + 1:STRIDE] += contrib
    od = (d - 1) * STRIDE - 2 * PAD + K
    oh = (h - 1) * STRIDE - 2 * PAD + K
    ow = (wd - 1) * STRIDE - 2 * PAD + K
    out = full[:, :, PAD:PAD + od, PAD:PAD + oh, PAD:PAD + ow]
    return out + b.reshape(1, -1, 1, 1, 1)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(7)

    x = rng.random((N, CIN, D, H, W), dtype=np.float32)
    bound = 1.0 / math.sqrt(COUT * K * K * K)
    w = rng.uniform(-bound, bound, (CIN, COUT, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (COUT,)).astype(np.float32)
    ow = (W - 1) * STRIDE - 2 * PAD + K
    gamma = np.ones(ow, dtype=np.float32)
    beta = np.zeros(ow, dtype=np.float32)

    y = upsample_conv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    mu = y.mean(axis=-1, keepdims=True)
    var = y.var(axis=-1, keepdims=True)
    y = (y - mu) / np.sqrt(var + EPS) * gamma + beta
    erf = np.vectorize(math.erf)
    y = 0.5 * y * (1.0 + erf(y / math.sqrt(2.0)))
    y = y * SCALE

    x.tofile("input/input_x.bin")
    w.tofile("input/input_weight.bin")
    b.tofile("input/input_bias.bin")
    gamma.tofile("input/input_gamma.bin")
    beta.tofile("input/input_beta.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
