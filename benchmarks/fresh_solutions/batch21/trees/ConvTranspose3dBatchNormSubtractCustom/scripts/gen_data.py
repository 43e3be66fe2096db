#!/usr/bin/env python3
import os
import numpy as np

N, CIN, COUT = 2, 8, 16
D, H, W = 8, 16, 16
K, S, P = 3, 2, 1
EPS = 1e-5


def transposed_conv3d(x, w, b):
    n, _, d, h, wd = x.shape
    full_shape = (n, w.shape[1], (d - 1) * S + K, (h - 1) * S + K, (wd - 1) * S + K)
    full = np.zeros(full_shape)
    for a in range(K):
        for c in range(K):
            for e in range(K):
                part = np.tensordot(x, w[:, :, a, c, e], axes=([1], [0]))   # (n, d, h, w, cout)
                full[:, :, a:a + S * (d - 1) + 1:S, c:c + S * (h - 1) + 1:S,
                     e:e + S * (wd - 1) + 1:S] += part.transpose(0, 4, 1, 2, 3)
    y = full[:, :, P:full_shape[2] - P, P:full_shape[3] - P, P:full_shape[4] - P]
    return y + b[None, :, None, None, None]


def main():
    rng = np.random.default_rng(99)
    x = rng.random((N, CIN, D, H, W)).astype(np.float32)
    lim = 1.0 / np.sqrt(COUT * K ** 3)
    w = rng.uniform(-lim, lim, (CIN, COUT, K, K, K)).astype(np.float32)
    b = rng.uniform(-lim, lim, COUT).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, COUT).astype(np.float32)
    beta = rng.uniform(-0.5, 0.5, COUT).astype(np.float32)   # cancels, not passed to the kernel

    y = transposed_conv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    mu = y.mean(axis=(0, 2, 3, 4), keepdims=True)
    var = y.var(axis=(0, 2, 3, 4), keepdims=True)
    z = gamma[None, :, None, None, None] * (y - mu) / np.sqrt(var + EPS) + beta[None, :, None, None, None]
    z = z - z.mean(axis=(2, 3, 4), keepdims=True)

    os.makedirs('input', exist_ok=True)
    os.makedirs('output', exist_ok=True)
    x.tofile('input/input_x.bin')
    w.tofile('input/input_w.bin')
    b.tofile('input/input_bias.bin')
    gamma.tofile('input/input_gamma.bin')
    z.astype(np.float32).tofile('output/golden.bin')


if __name__ == '__main__':
    main()
