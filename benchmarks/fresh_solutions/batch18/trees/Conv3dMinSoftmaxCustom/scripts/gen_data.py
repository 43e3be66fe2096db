#!/usr/bin/env python3
"""x, weight, bias and golden output for vol_filter_dmin_softmax."""
import os
import numpy as np

N, CI, D, H, W = 128, 3, 24, 32, 32
CO, K = 24, 3


def reference(x, w, b):
    do, ho, wo = D - K + 1, H - K + 1, W - K + 1
    z = np.zeros((N, CO, do, ho, wo), np.float32)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                patch = x[:, :, kd:kd + do, kh:kh + ho, kw:kw + wo]
                z += np.einsum("ncdhw,oc->nodhw", patch, w[:, :, kd, kh, kw], optimize=True)
    z += b[None, :, None, None, None]
    m = z.min(axis=2)
    m = m - m.max(axis=1, keepdims=True)
    e = np.exp(m)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    bound = 1.0 / np.sqrt(CI * K * K * K)  # same range as the default conv init
    x = np.random.rand(N, CI, D, H, W).astype(np.float32)
    w = np.random.uniform(-bound, bound, (CO, CI, K, K, K)).astype(np.float32)
    b = np.random.uniform(-bound, bound, CO).astype(np.float32)
    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    reference(x, w, b).tofile("output/golden.bin")
