#!/usr/bin/python3
# Data for voxel_filter_gn_clamp: conv3d(valid) -> GroupNorm(8) -> min(.,0) -> clamp(0,1) -> dropout
import os
import numpy as np

N, CIN, COUT, K = 4, 3, 16, 3
D, H, W = 16, 32, 32
GROUPS = 8
EPS = 1e-5
MIN_V, LO, HI = 0.0, 0.0, 1.0
P = 0.2


def conv3d_valid(x, w, b):
    n, cin, d, h, wd = x.shape
    do, ho, wo = d - K + 1, h - K + 1, wd - K + 1
    y = np.zeros((n, w.shape[0], do, ho, wo), dtype=np.float64)
    for a in range(K):
        for i in range(K):
            for j in range(K):
                win = x[:, :, a:a + do, i:i + ho, j:j + wo].astype(np.float64)
                y += np.einsum("ncdhw,oc->nodhw", win, w[:, :, a, i, j].astype(np.float64))
    return y + b.reshape(1, -1, 1, 1, 1)


def group_norm(y, gamma, beta):
    n, c = y.shape[:2]
    g = y.reshape(n, GROUPS, -1)
    mu = g.mean(axis=2, keepdims=True)
    var = g.var(axis=2, keepdims=True)
    g = (g - mu) / np.sqrt(var + EPS)
    y = g.reshape(y.shape)
    return y * gamma.reshape(1, -1, 1, 1, 1) + beta.reshape(1, -1, 1, 1, 1)


if __name__ == "__main__":
    np.random.seed(1)
    fan_in = CIN * K ** 3
    bound = 1.0 / np.sqrt(fan_in)
    x = np.random.rand(N, CIN, D, H, W).astype(np.float32)
    w = np.random.uniform(-bound, bound, (COUT, CIN, K, K, K)).astype(np.float32)
    b = np.random.uniform(-bound, bound, (COUT,)).astype(np.float32)
    gamma = np.random.uniform(0.5, 1.5, (COUT,)).astype(np.float32)
    beta = np.random.uniform(-0.5, 0.5, (COUT,)).astype(np.float32)

    y = conv3d_valid(x, w, b)
    y = group_norm(y, gamma, beta)
    y = np.minimum(y, MIN_V)
    y = np.clip(y, LO, HI)
    keep = (np.random.rand(*y.shape) >= P).astype(np.float32)   # dropout mask, fixed for the test
    y = y * keep / (1.0 - P)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w.tofile("input/conv_w.bin")
    b.tofile("input/conv_b.bin")
    gamma.tofile("input/gn_gamma.bin")
    beta.tofile("input/gn_beta.bin")
    keep.tofile("input/keep_mask.bin")
    y.astype(np.float32).tofile("output/golden.bin")
