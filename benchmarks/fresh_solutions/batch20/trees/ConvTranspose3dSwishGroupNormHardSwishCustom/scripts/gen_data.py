#!/usr/bin/env python3
"""Inputs and golden output for vol_deconv_silu_gn_hsw (numpy only)."""
import os
import numpy as np

N, CIN, COUT, D, H, W = 2, 3, 16, 16, 32, 32
K, S, P, G, EPS = 3, 2, 1, 4, 1e-5


def deconv3d(x, w, b):
    n, cin, d, h, wd = x.shape
    cout = w.shape[1]
    full = np.zeros((n, cout, (d - 1) * S + K, (h - 1) * S + K, (wd - 1) * S + K), np.float64)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                contrib = np.einsum('ncdhw,co->nodhw', x, w[:, :, kd, kh, kw])
                full[:, :, kd:kd + S * (d - 1) + 1:S,
                     kh:kh + S * (h - 1) + 1:S,
                     kw:kw + S * (wd - 1) + 1:S] += contrib
    od, oh, ow = full.shape[2] - 2 * P, full.shape[3] - 2 * P, full.shape[4] - 2 * P
    out = full[:, :, P:P + od, P:P + oh, P:P + ow]
    return out + b.reshape(1, -1, 1, 1, 1)


def main():
    os.makedirs('input', exist_ok=True)
    os.makedirs('output', exist_ok=True)
    rng = np.random.default_rng(7)
    x = rng.random((N, CIN, D, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(COUT * K * K * K)
    w = rng.uniform(-bound, bound, (CIN, COUT, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, COUT).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, COUT).astype(np.float32)
    beta = rng.uniform(-0.2, 0.2, COUT).astype(np.float32)

    y = deconv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    y = y / (1.0 + np.exp(-y))                       # SiLU
    n, c = y.shape[:2]
    yg = y.reshape(n, G, -1)
    mean = yg.mean(axis=2, keepdims=True)
    var = yg.var(axis=2, keepdims=True)
    y = ((yg - mean) / np.sqrt(var + EPS)).reshape(y.shape)
    y = y * gamma.reshape(1, -1, 1, 1, 1) + beta.reshape(1, -1, 1, 1, 1)
    y = y * np.clip(y + 3.0, 0.0, 6.0) / 6.0         # hard-swish

    x.tofile('input/input_x.bin')
    w.tofile('input/input_w.bin')
    b.tofile('input/input_bias.bin')
    gamma.tofile('input/input_gamma.bin')
    beta.tofile('input/input_beta.bin')
    y.astype(np.float32).tofile('output/golden.bin')


if __name__ == '__main__':
    main()
