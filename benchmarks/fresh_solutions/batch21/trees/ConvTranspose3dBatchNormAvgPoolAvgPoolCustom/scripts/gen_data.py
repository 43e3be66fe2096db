#!/usr/bin/env python3
"""Inputs and golden output for deconv3d_norm_quarter_pool (numpy only)."""
import os
import numpy as np

N, CIN, COUT, D, H, W = 4, 3, 16, 16, 16, 16
K, S, P = 3, 2, 1
EPS = 1e-5


def deconv3d(x, w, b):
    # scatter form: every input voxel adds a weighted kernel block to the output
    n, cin, d, h, ww = x.shape
    cout = w.shape[1]
    fd, fh, fw = (d - 1) * S + K, (h - 1) * S + K, (ww - 1) * S + K
    full = np.zeros((n, cout, fd, fh, fw), dtype=np.float64)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                # (n, cin, d, h, w) x (cin, cout) -> (n, cout, d, h, w)
                contrib = np.einsum('nidhw,io->nodhw', x, w[:, :, kd, kh, kw])
                full[:, :, kd:kd + (d - 1) * S + 1:S, kh:kh + (h - 1) * S + 1:S,
                     kw:kw + (ww - 1) * S + 1:S] += contrib
    out = full[:, :, P:fd - P, P:fh - P, P:fw - P]
    return out + b.reshape(1, -1, 1, 1, 1)


def avg_pool2(x):
    n, c, d, h, w = x.shape
    d2, h2, w2 = d // 2, h // 2, w // 2
    x = x[:, :, :d2 * 2, :h2 * 2, :w2 * 2]
    return x.reshape(n, c, d2, 2, h2, 2, w2, 2).mean(axis=(3, 5, 7))


def main():
    rng = np.random.default_rng(7)
    x = rng.random((N, CIN, D, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(COUT * K * K * K)
    w = rng.uniform(-bound, bound, (CIN, COUT, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, COUT).astype(np.float32)
    gamma = np.ones(COUT, dtype=np.float32)
    beta = np.zeros(COUT, dtype=np.float32)

    y = deconv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    mean = y.mean(axis=(0, 2, 3, 4), keepdims=True)
    var = y.var(axis=(0, 2, 3, 4), keepdims=True)
    y = (y - mean) / np.sqrt(var + EPS) * gamma.reshape(1, -1, 1, 1, 1) + beta.reshape(1, -1, 1, 1, 1)
    golden = avg_pool2(avg_pool2(y)).astype(np.float32)

    os.makedirs('input', exist_ok=True)
    os.makedirs('output', exist_ok=True)
    x.tofile('input/input_x.bin')
    w.tofile('input/input_weight.bin')
    b.tofile('input/input_bias.bin')
    gamma.tofile('input/input_gamma.bin')
    beta.tofile('input/input_beta.bin')
    golden.tofile('output/golden.bin')
    print('golden shape', golden.shape)


if __name__ == '__main__':
    main()
