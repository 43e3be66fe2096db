#!/usr/bin/env python3
# Builds x, w, b and the golden result for conv_offset_mish.
import os
import numpy as np

N, C, H, W = 8, 8, 256, 256
OC, K = 64, 3
OFFSET = 0.5 + 0.2


def conv2d_valid(x, w, b):
    n, c, h, wd = x.shape
    oc, _, kh, kw = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    # im2col via stride tricks, then one big matmul
    s = x.strides
    cols = np.lib.stride_tricks.as_strided(
        x, shape=(n, c, kh, kw, oh, ow), strides=(s[0], s[1], s[2], s[3], s[2], s[3]))
    cols = cols.reshape(n, c * kh * kw, oh * ow)
    out = np.einsum("ok,nkp->nop", w.reshape(oc, -1), cols, optimize=True)
    return out.reshape(n, oc, oh, ow) + b.reshape(1, oc, 1, 1)


def mish(z):
    return z * np.tanh(np.log1p(np.exp(np.minimum(z, 20.0))))


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, C, H, W).astype(np.float32)
    bound = 1.0 / np.sqrt(C * K * K)
    w = np.random.uniform(-bound, bound, (OC, C, K, K)).astype(np.float32)
    b = np.random.uniform(-bound, bound, (OC,)).astype(np.float32)
    y = mish(conv2d_valid(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64)) - OFFSET)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    b.tofile("input/b.bin")
    y.astype(np.float32).tofile("output/golden.bin")
