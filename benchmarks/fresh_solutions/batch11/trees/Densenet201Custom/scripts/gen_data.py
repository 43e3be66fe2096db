#!/usr/bin/env python3
"""Data + numpy reference for dense_growth_net (batch-statistics BN, as in training mode)."""
import os

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

N, IMG, GROWTH, CLASSES = 10, 224, 32, 10
BLOCKS = (6, 12, 48, 32)

rng = np.random.default_rng(11)
conv_chunks, bn_chunks = [], []


def conv_weight(cout, cin, k):
    w = (rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(np.float32)
    conv_chunks.append(w.reshape(-1))
    return w


def bn_params(c):
    g = (1.0 + 0.1 * rng.standard_normal(c)).astype(np.float32)
    b = (0.1 * rng.standard_normal(c)).astype(np.float32)
    bn_chunks.extend([g, b])
    return g, b


def conv2d(x, w, stride, pad):
    k = w.shape[-1]
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::stride, ::stride]   # n c oh ow kh kw
    return np.einsum("nchwij,ocij->nohw", win, w, optimize=True).astype(np.float32)


def bn_relu(x, g, b, eps=1e-5):
    mu = x.mean(axis=(0, 2, 3), keepdims=True)
    var = x.var(axis=(0, 2, 3), keepdims=True)
    y = (x - mu) / np.sqrt(var + eps) * g[None, :, None, None] + b[None, :, None, None]
    return np.maximum(y, 0.0).astype(np.float32)


def max_pool(x, k, s, p):
    xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    return sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::s, ::s].max(axis=(-1, -2))


def avg_pool2(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).mean(axis=(3, 5))


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((N, 3, IMG, IMG), dtype=np.float32)
    x.tofile("input/image.bin")

    y = conv2d(x, conv_weight(64, 3, 7), 2, 3)
    y = max_pool(bn_relu(y, *bn_params(64)), 3, 2, 1)

    ch = 64
    for i, layers in enumerate(BLOCKS):
        feats = y
        for l in range(layers):
            cin = ch + l * GROWTH
            g, b = bn_params(cin)
            w = conv_weight(GROWTH, cin, 3)
            feats = np.concatenate([feats, conv2d(bn_relu(feats, g, b), w, 1, 1)], axis=1)
        ch += layers * GROWTH
        y = feats
        if i != len(BLOCKS) - 1:
            g, b = bn_params(ch)
            w = conv_weight(ch // 2, ch, 1)
            y = conv2d(bn_relu(y, g, b), w, 1, 0)
            y = avg_pool2(y)
            ch //= 2

    g, b = bn_params(ch)
    feat = bn_relu(y, g, b).mean(axis=(2, 3))
    bound = 1.0 / np.sqrt(ch)
    fc_w = rng.uniform(-bound, bound, (CLASSES, ch)).astype(np.float32)
    fc_b = rng.uniform(-bound, bound, (CLASSES,)).astype(np.float32)
    logits = feat @ fc_w.T + fc_b

    np.concatenate(conv_chunks).tofile("input/conv_weights.bin")
    np.concatenate(bn_chunks).tofile("input/bn_params.bin")
    np.ascontiguousarray(fc_w.T).tofile("input/fc_w_t.bin")
    fc_b.tofile("input/fc_b.bin")
    logits.astype(np.float32).tofile("output/golden.bin")
    print("final channels", ch, "logits", logits.shape)


if __name__ == "__main__":
    main()
