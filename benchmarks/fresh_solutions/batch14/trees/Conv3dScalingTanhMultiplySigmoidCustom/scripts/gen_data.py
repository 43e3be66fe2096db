#!/usr/bin/env python3
"""Generate inputs and golden output for volume_conv_tanh_gate (numpy only)."""
import os
import numpy as np

N, CI, CO, D, H, W, K = 4, 3, 16, 16, 64, 64, 3


def conv3d_valid(x, w, b):
    n, ci, d, h, wd = x.shape
    co = w.shape[0]
    od, oh, ow = d - K + 1, h - K + 1, wd - K + 1
    out = np.zeros((n, co, od, oh, ow), dtype=np.float64)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                patch = x[:, :, kd:kd + od, kh:kh + oh, kw:kw + ow].astype(np.float64)
                out += np.einsum("ncdhw,oc->nodhw", patch, w[:, :, kd, kh, kw].astype(np.float64))
    return out + b.reshape(1, co, 1, 1, 1)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(7)
    x = rng.random((N, CI, D, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(CI * K * K * K)
    weight = rng.uniform(-bound, bound, (CO, CI, K, K, K)).astype(np.float32)
    conv_bias = rng.uniform(-bound, bound, CO).astype(np.float32)
    alpha = rng.standard_normal(CO).astype(np.float32)
    beta = rng.standard_normal(CO).astype(np.float32)

    z = conv3d_valid(x, weight, conv_bias)
    z = np.tanh(z * alpha.reshape(1, CO, 1, 1, 1))
    z = z * beta.reshape(1, CO, 1, 1, 1)
    golden = (1.0 / (1.0 + np.exp(-z))).astype(np.float32)

    x.tofile("input/x.bin")
    weight.tofile("input/weight.bin")
    conv_bias.tofile("input/conv_bias.bin")
    alpha.tofile("input/alpha.bin")
    beta.tofile("input/beta.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
