#!/usr/bin/env python3
"""Reference data for upconv3d_channel_gate (numpy only)."""
import os
import numpy as np

N, CIN, COUT = 2, 32, 64
D, H, W = 8, 16, 16
K, S, P, OP = 3, 2, 1, 1


def transposed_conv3d(x, w, b):
    n, cin, d, h, wd = x.shape
    cout = w.shape[1]
    od = (d - 1) * S - 2 * P + K + OP
    oh = (h - 1) * S - 2 * P + K + OP
    ow = (wd - 1) * S - 2 * P + K + OP
    # scatter every input voxel into a padded canvas, crop afterwards
    full = np.zeros((n, cout, (d - 1) * S + K + OP, (h - 1) * S + K + OP, (wd - 1) * S + K + OP))
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                contrib = np.einsum("ncdhw,co->nodhw", x, w[:, :, kd, kh, kw])
                full[:, :, kd:kd + (d - 1) * S + 1:S,
                     kh:kh + (h - 1) * S + 1:S,
                     kw:kw + (wd - 1) * S + 1:S] += contrib
    out = full[:, :, P:P + od, P:P + oh, P:P + ow]
    return out + b.reshape(1, -1, 1, 1, 1)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(3)
    bound = 1.0 / np.sqrt(COUT * K * K * K)
    x = rng.random((N, CIN, D, H, W)).astype(np.float32)
    w = rng.uniform(-bound, bound, (CIN, COUT, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (COUT,)).astype(np.float32)

    t = transposed_conv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    t = t - t.max(axis=1, keepdims=True)
    e = np.exp(t)
    sm = e / e.sum(axis=1, keepdims=True)
    y = (1.0 / (1.0 + np.exp(-sm))).astype(np.float32)

    x.tofile("input/input_x.bin")
    w.tofile("input/input_w.bin")
    b.tofile("input/input_b.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
