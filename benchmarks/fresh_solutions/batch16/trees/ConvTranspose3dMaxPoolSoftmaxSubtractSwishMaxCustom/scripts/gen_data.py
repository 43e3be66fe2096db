#!/usr/bin/env python3
"""Data + golden for upvolume_channel_peak (numpy only)."""
import os
import numpy as np

N, CI, CO, D, H, W = 8, 3, 16, 16, 32, 32
K, S, P, OUT_PAD = 3, 2, 1, 1
POOL = 2


def upconv3d(x, w, b):
    n, ci, d, h, wd = x.shape
    co = w.shape[1]
    full = np.zeros((n, co, (d - 1) * S + K + OUT_PAD, (h - 1) * S + K + OUT_PAD,
                     (wd - 1) * S + K + OUT_PAD))
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                part = np.einsum("ncdhw,co->nodhw", x, w[:, :, kd, kh, kw])
                full[:, :, kd:kd + (d - 1) * S + 1:S, kh:kh + (h - 1) * S + 1:S,
                     kw:kw + (wd - 1) * S + 1:S] += part
    od = (d - 1) * S - 2 * P + K + OUT_PAD
    oh = (h - 1) * S - 2 * P + K + OUT_PAD
    ow = (wd - 1) * S - 2 * P + K + OUT_PAD
    out = full[:, :, P:P + od, P:P + oh, P:P + ow]
    return out + b.reshape(1, -1, 1, 1, 1)


def maxpool3d(v):
    n, c, d, h, w = v.shape
    pd, ph, pw = d // POOL, h // POOL, w // POOL
    v = v[:, :, :pd * POOL, :ph * POOL, :pw * POOL]
    v = v.reshape(n, c, pd, POOL, ph, POOL, pw, POOL)
    return v.max(axis=(3, 5, 7))


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(11)
    bound = 1.0 / np.sqrt(CO * K ** 3)
    x = rng.random((N, CI, D, H, W), dtype=np.float32)
    w = rng.uniform(-bound, bound, (CI, CO, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (CO,)).astype(np.float32)
    shift = rng.standard_normal(CO).astype(np.float32)

    q = maxpool3d(upconv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64)))
    e = np.exp(q - q.max(axis=1, keepdims=True))
    r = e / e.sum(axis=1, keepdims=True)
    g = r - shift.reshape(1, -1, 1, 1, 1)
    g = g / (1.0 + np.exp(-g))
    y = g.max(axis=1).astype(np.float32)

    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    shift.tofile("input/shift.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
