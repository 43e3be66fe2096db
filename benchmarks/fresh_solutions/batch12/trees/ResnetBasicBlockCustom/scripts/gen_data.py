#!/usr/bin/env python3
"""Data for residual_pair_conv: random weights, BatchNorm statistics folded to scale/shift."""
import os
import numpy as np

N, CIN, C, H, W = 10, 3, 64, 224, 224
EPS = 1e-5
rng = np.random.default_rng(5)


def conv3x3(x, w):
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((x.shape[0], w.shape[0], H, W), dtype=np.float32)
    for kh in range(3):
        for kw in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, kh:kh + H, kw:kw + W], w[:, :, kh, kw], optimize=True)
    return y


def bn_params(ch):
    gamma = rng.uniform(0.5, 1.5, ch).astype(np.float32)
    beta = rng.uniform(-0.2, 0.2, ch).astype(np.float32)
    mean = rng.uniform(-0.1, 0.1, ch).astype(np.float32)
    var = rng.uniform(0.5, 1.5, ch).astype(np.float32)
    scale = gamma / np.sqrt(var + EPS)
    return scale.astype(np.float32), (beta - mean * scale).astype(np.float32)


def main():
    x = rng.random((N, CIN, H, W), dtype=np.float32)
    w1 = (rng.standard_normal((C, CIN, 3, 3)) * np.sqrt(2.0 / (CIN * 9))).astype(np.float32)
    w2 = (rng.standard_normal((C, C, 3, 3)) * np.sqrt(2.0 / (C * 9))).astype(np.float32)
    wp = (rng.standard_normal((C, CIN, 1, 1)) * np.sqrt(2.0 / CIN)).astype(np.float32)
    s1, t1 = bn_params(C)
    s2, t2 = bn_params(C)
    s3, t3 = bn_params(C)

    y = np.empty((N, C, H, W), dtype=np.float32)
    for i in range(N):
        xi = x[i:i + 1]
        mid = np.maximum(conv3x3(xi, w1) * s1[:, None, None] + t1[:, None, None], 0)
        main_path = conv3x3(mid, w2) * s2[:, None, None] + t2[:, None, None]
        skip = np.einsum("nchw,oc->nohw", xi, wp[:, :, 0, 0]) * s3[:, None, None] + t3[:, None, None]
        y[i] = np.maximum(main_path + skip, 0)[0]

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w1.transpose(1, 2, 3, 0).astype(np.float32).tofile("input/conv1_packed.bin")
    w2.transpose(1, 2, 3, 0).astype(np.float32).tofile("input/conv2_packed.bin")
    wp[:, :, 0, 0].T.astype(np.float32).tofile("input/proj_packed.bin")
    zeros = np.zeros(C, dtype=np.float32)
    np.concatenate([s1, t1, zeros, zeros]).tofile("input/affine1.bin")
    np.concatenate([s2, t2, s3, t3]).tofile("input/affine2.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
