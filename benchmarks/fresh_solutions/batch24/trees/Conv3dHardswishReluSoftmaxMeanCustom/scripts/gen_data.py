#!/usr/bin/env python3
import os
import numpy as np

N, CIN, D, H, W = 1024, 3, 16, 32, 32
COUT, K, GROUPS, EPS = 16, 4, 4, 1e-5


def conv3d_valid(x, w, b):
    n, cin, d, h, wd = x.shape
    cout, _, k, _, _ = w.shape
    od, oh, ow = d - k + 1, h - k + 1, wd - k + 1
    out = np.broadcast_to(b.reshape(1, cout, 1, 1, 1), (n, cout, od, oh, ow)).astype(np.float32).copy()
    for kd in range(k):
        for kh in range(k):
            for kw in range(k):
                patch = x[:, :, kd:kd + od, kh:kh + oh, kw:kw + ow]
                out += np.einsum("ncdhw,oc->nodhw", patch, w[:, :, kd, kh, kw], optimize=True)
    return out


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(0)
    x = rng.random((N, CIN, D, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(CIN * K ** 3)
    w = rng.uniform(-bound, bound, (COUT, CIN, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, COUT).astype(np.float32)
    gamma = np.ones(COUT, np.float32)
    beta = np.zeros(COUT, np.float32)

    y = np.empty((N, COUT), np.float32)
    for s in range(0, N, 64):   # chunks keep memory modest
        h = conv3d_valid(x[s:s + 64], w, b)
        h = h * np.clip(h + 3.0, 0.0, 6.0) / 6.0
        g = h.reshape(h.shape[0], GROUPS, -1)
        mu = g.mean(axis=2, keepdims=True)
        var = g.var(axis=2, keepdims=True)
        g = ((g - mu) / np.sqrt(var + EPS)).reshape(h.shape)
        g = g * gamma.reshape(1, -1, 1, 1, 1) + beta.reshape(1, -1, 1, 1, 1)
        y[s:s + 64] = g.mean(axis=(2, 3, 4))

    for name, arr in [("x", x), ("weight", w), ("bias", b), ("gamma", gamma), ("beta", beta)]:
        arr.tofile(f"input/{name}.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
