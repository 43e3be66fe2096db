#!/usr/bin/env python3
"""Inputs, weights (kernel layouts) and golden scores for stacked_3x3_classifier."""
import os

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

N = 10
CFG = [64, 64, "M", 128, 128, "M", 256, 256, 256, 256, "M", 512, 512, 512, 512, "M", 512, 512, 512, 512, "M"]
FC = [512 * 7 * 7, 4096, 4096, 1000]
rng = np.random.default_rng(19)


def conv3x3_relu(x, w, b):
    """x: NCHW, w: (cout, cin, 3, 3)"""
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    win = sliding_window_view(xp, (3, 3), axis=(2, 3))
    y = np.einsum("nchwij,ocij->nohw", win, w, optimize=True) + b[None, :, None, None]
    return np.maximum(y, 0.0).astype(np.float32)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((N, 3, 224, 224), dtype=np.float32)

    # device input: NHWC, channels zero-padded 3 -> 8
    nhwc = np.zeros((N, 224, 224, 8), np.float32)
    nhwc[..., :3] = x.transpose(0, 2, 3, 1)
    nhwc.tofile("input/image_nhwc.bin")

    cin, idx = 3, 0
    for v in CFG:
        if v == "M":
            n, c, h, w = x.shape
            x = x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))
            continue
        wgt = (rng.standard_normal((v, cin, 3, 3)) * np.sqrt(2.0 / (9 * cin))).astype(np.float32)
        bias = (0.01 * rng.standard_normal(v)).astype(np.float32)
        x = conv3x3_relu(x, wgt, bias)
        # kernel layout: rows ordered (kh, kw, cin) with cin padded to 8 for the first layer
        cpad = 8 if cin == 3 else cin
        wk = np.zeros((3, 3, cpad, v), np.float32)
        wk[:, :, :cin, :] = wgt.transpose(2, 3, 1, 0)
        wk.reshape(9 * cpad, v).tofile(f"input/conv{idx}_w.bin")
        bias.tofile(f"input/conv{idx}_b.bin")
        cin, idx = v, idx + 1

    feat = x.reshape(N, -1)                                  # torch.flatten order (c, h, w)
    for i in range(3):
        bound = 1.0 / np.sqrt(FC[i])
        wgt = rng.uniform(-bound, bound, (FC[i + 1], FC[i])).astype(np.float32)
        bias = rng.uniform(-bound, bound, FC[i + 1]).astype(np.float32)
        feat = feat @ wgt.T + bias
        if i < 2:
            feat = np.maximum(feat, 0.0)
        wk = wgt.T
        if i == 0:
            # device features are flattened as (h, w, c): permute the input rows to match
            wk = wk.reshape(512, 7, 7, FC[1]).transpose(1, 2, 0, 3).reshape(FC[0], FC[1])
        np.ascontiguousarray(wk).tofile(f"input/fc{i}_w.bin")
        bias.tofile(f"input/fc{i}_b.bin")

    feat.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
