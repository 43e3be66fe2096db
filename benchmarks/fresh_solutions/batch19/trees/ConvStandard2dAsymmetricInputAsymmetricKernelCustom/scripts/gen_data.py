#!/usr/bin/env python3
# x, w and golden y for unfold_conv2d (valid cross-correlation, stride 1, no bias)
import os
import numpy as np

B, C, H, W = 8, 64, 256, 128
OC, KH, KW = 128, 5, 7


def conv_valid(x, w):
    oh, ow = x.shape[2] - KH + 1, x.shape[3] - KW + 1
    y = np.zeros((x.shape[0], OC, oh, ow), dtype=np.float64)
    for kh in range(KH):
        for kw in range(KW):
            patch = x[:, :, kh:kh + oh, kw:kw + ow]            # B, C, oh, ow
            y += np.einsum("bchw,oc->bohw", patch, w[:, :, kh, kw], optimize=True)
    return y


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(B, C, H, W).astype(np.float32)
    lim = 1.0 / np.sqrt(C * KH * KW)
    w = np.random.uniform(-lim, lim, (OC, C, KH, KW)).astype(np.float32)
    y = conv_valid(x.astype(np.float64), w.astype(np.float64)).astype(np.float32)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    y.tofile("output/golden.bin")
