#!/usr/bin/env python3
"""Data for dw_then_pw_conv: depthwise 3x3 (pad 1) followed by a 1x1 conv, no bias."""
import os
import numpy as np

N, CIN, COUT, H, W, K, PAD = 2, 64, 128, 512, 512, 3, 1


def depthwise(x, w):
    xp = np.pad(x, ((0, 0), (0, 0), (PAD, PAD), (PAD, PAD)))
    oh, ow = H + 2 * PAD - K + 1, W + 2 * PAD - K + 1
    out = np.zeros((x.shape[0], CIN, oh, ow), np.float32)
    for kh in range(K):
        for kw in range(K):
            out += xp[:, :, kh:kh + oh, kw:kw + ow] * w[None, :, kh, kw, None, None]
    return out


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, CIN, H, W).astype(np.float32)
    dw = np.random.uniform(-1 / 3, 1 / 3, (CIN, K, K)).astype(np.float32)   # [C, 1, K, K] squeezed
    pw = np.random.uniform(-0.125, 0.125, (COUT, CIN)).astype(np.float32)   # [O, C, 1, 1] squeezed
    mid = depthwise(x, dw)
    out = np.einsum("oc,nchw->nohw", pw, mid, optimize=True).astype(np.float32)
    x.tofile("input/x.bin")
    dw.tofile("input/dw_weight.bin")
    pw.tofile("input/pw_weight.bin")
    out.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
