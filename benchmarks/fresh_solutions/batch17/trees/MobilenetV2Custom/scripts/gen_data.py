#!/usr/bin/env python3
"""Image, parameters and golden logits for the inverted-residual classifier (batch 2).

BatchNorm uses running statistics (inference) and is folded into scale/shift per channel.
Parameter order must match BuildNetwork() in main.cpp."""
import os
import numpy as np

BATCH, CLASSES, LAST = 2, 1000, 1280
EPS = 1e-5
CFG = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
       (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]

rng = np.random.default_rng(11)
params = []


def folded_bn(c):
    gamma, beta = np.ones(c, np.float32), np.zeros(c, np.float32)
    mean, var = np.zeros(c, np.float32), np.ones(c, np.float32)
    scale = gamma / np.sqrt(var + EPS)
    return scale.astype(np.float32), (beta - mean * scale).astype(np.float32)


def new_conv(cout, cin_g, k):
    std = np.sqrt(2.0 / (cout * k * k))  # kaiming normal, fan_out
    w = (rng.standard_normal((cout, cin_g, k, k)) * std).astype(np.float32)
    s, b = folded_bn(cout)
    params.extend([w.ravel(), s, b])
    return w, s, b


def relu6(x):
    return np.clip(x, 0.0, 6.0)


def affine(x, s, b):
    return x * s[None, :, None, None] + b[None, :, None, None]


def conv3x3(x, w, stride, groups):
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    oh, ow = (h - 1) // stride + 1, (wd - 1) // stride + 1
    out = np.zeros((n, w.shape[0], oh, ow), np.float32)
    for kh in range(3):
        for kw in range(3):
            patch = xp[:, :, kh:kh + stride * (oh - 1) + 1:stride, kw:kw + stride * (ow - 1) + 1:stride]
            if groups == 1:
                out += np.einsum("nchw,oc->nohw", patch, w[:, :, kh, kw], optimize=True)
            else:
                out += patch * w[None, :, 0, kh, kw, None, None]
    return out


def pointwise(x, w):
    return np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0], optimize=True)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((BATCH, 3, 224, 224), dtype=np.float32)

    w, s, b = new_conv(32, 3, 3)
    y = relu6(affine(conv3x3(x, w, 2, 1), s, b))
    ch = 32
    for t, c, n, st in CFG:
        for i in range(n):
            stride = st if i == 0 else 1
            hidden = ch * t
            inp = y
            if t != 1:
                w, s, b = new_conv(hidden, ch, 1)
                y = relu6(affine(pointwise(y, w), s, b))
            w, s, b = new_conv(hidden, 1, 3)
            y = relu6(affine(conv3x3(y, w, stride, hidden), s, b))
            w, s, b = new_conv(c, hidden, 1)
            y = affine(pointwise(y, w), s, b)
            if stride == 1 and ch == c:
                y = y + inp
            ch = c
    w, s, b = new_conv(LAST, ch, 1)
    y = relu6(affine(pointwise(y, w), s, b))

    pooled = y.mean(axis=(2, 3))
    fc_w = (rng.standard_normal((CLASSES, LAST)) * 0.01).astype(np.float32)
    fc_b = np.zeros(CLASSES, np.float32)
    logits = pooled @ fc_w.T + fc_b
    params.extend([fc_w.ravel(), fc_b])

    x.tofile("input/x.bin")
    np.concatenate(params).astype(np.float32).tofile("input/params.bin")
    logits.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
