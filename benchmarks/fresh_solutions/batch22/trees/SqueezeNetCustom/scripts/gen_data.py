#!/usr/bin/env python3
"""Input, packed parameters and numpy reference for fire_stack_forward."""
import os
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

BATCH, IN_C, IN_H, IN_W = 2, 3, 224, 224
CLASSES = 1000
FIRES = [(96, 16, 64, 64), (128, 16, 64, 64), (128, 32, 128, 128),
         (256, 32, 128, 128), (256, 48, 192, 192), (384, 48, 192, 192),
         (384, 64, 256, 256), (512, 64, 256, 256)]

rng = np.random.default_rng(7)
packed = []


def make_conv(co, ci, k):
    # kaiming-uniform-ish like the torch default init
    bound = 1.0 / np.sqrt(ci * k * k)
    w = rng.uniform(-bound, bound, size=(co, ci, k, k)).astype(np.float32)
    b = rng.uniform(-bound, bound, size=(co,)).astype(np.float32)
    packed.append(w.ravel())
    packed.append(b)
    return w, b


def conv_relu(x, w, b, stride=1, pad=0):
    if pad:
        x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k = w.shape[-1]
    win = sliding_window_view(x, (k, k), axis=(2, 3))[:, :, ::stride, ::stride]
    y = np.einsum("nchwij,ocij->nohw", win, w, optimize=True) + b[None, :, None, None]
    return np.maximum(y, 0.0).astype(np.float32)


def maxpool_ceil(x):
    n, c, h, w = x.shape

    def out_len(L):
        o = -(-(L - 3) // 2) + 1
        if (o - 1) * 2 >= L:
            o -= 1
        return o

    ho, wo = out_len(h), out_len(w)
    need_h, need_w = (ho - 1) * 2 + 3, (wo - 1) * 2 + 3
    xp = np.pad(x, ((0, 0), (0, 0), (0, need_h - h), (0, need_w - w)), constant_values=-np.inf)
    win = sliding_window_view(xp, (3, 3), axis=(2, 3))[:, :, ::2, ::2]
    return win.max(axis=(-1, -2)).astype(np.float32)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((BATCH, IN_C, IN_H, IN_W), dtype=np.float32)

    w, b = make_conv(96, IN_C, 7)
    y = conv_relu(x, w, b, stride=2)
    y = maxpool_ceil(y)
    for i, (ci, sq, e1, e3) in enumerate(FIRES):
        ws, bs = make_conv(sq, ci, 1)
        w1, b1 = make_conv(e1, sq, 1)
        w3, b3 = make_conv(e3, sq, 3)
        s = conv_relu(y, ws, bs)
        y = np.concatenate([conv_relu(s, w1, b1), conv_relu(s, w3, b3, pad=1)], axis=1)
        if i in (2, 6):
            y = maxpool_ceil(y)
    wc, bc = make_conv(CLASSES, 512, 1)
    y = conv_relu(y, wc, bc)
    golden = y.mean(axis=(2, 3)).astype(np.float32)

    x.tofile("input/x.bin")
    np.concatenate(packed).astype(np.float32).tofile("input/params.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
