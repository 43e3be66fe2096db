#!/usr/bin/env python3
"""Random parameters, an input batch and the golden logits for the densely
connected classifier. Batch norm is in inference form: folded into per-channel
scale/shift. Conv weights are stored as [Cin][K][K][Cout] (the kernel layout)."""
import os
import numpy as np

BATCH, IMG, CLASSES, GROWTH = 10, 224, 10, 32
STAGES = [6, 12, 24, 16]
rng = np.random.default_rng(0)
params = []


def bn(c):
    gamma = rng.uniform(0.5, 1.5, c)
    beta = rng.uniform(-0.1, 0.1, c)
    mean = rng.uniform(-0.1, 0.1, c)
    var = rng.uniform(0.5, 1.5, c)
    scale = gamma / np.sqrt(var + 1e-5)
    return scale.astype(np.float32), (beta - mean * scale).astype(np.float32)


def conv_w(cin, cout, k):
    w = (rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(np.float32)
    params.append(w.transpose(1, 2, 3, 0).ravel())  # kernel layout
    return w


def conv(x, w, stride, pad):
    n, c, h, wd = x.shape
    co, _, k, _ = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho = (h + 2 * pad - k) // stride + 1
    wo = (wd + 2 * pad - k) // stride + 1
    out = np.zeros((n, co, ho, wo), np.float32)
    for kh in range(k):
        for kw in range(k):
            patch = xp[:, :, kh:kh + stride * ho:stride, kw:kw + stride * wo:stride]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, kh, kw], optimize=True)
    return out


def bn_relu(x, s, b):
    return np.maximum(x * s[None, :, None, None] + b[None, :, None, None], 0)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((BATCH, 3, IMG, IMG), dtype=np.float32)
    x.tofile("input/image.bin")

    w = conv_w(3, 64, 7)
    s, b = bn(64)
    params.extend([s, b])
    y = bn_relu(conv(x, w, 2, 3), s, b)
    yp = np.pad(y, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    y = np.max(np.stack([yp[:, :, i:i + 112:2, j:j + 112:2] for i in range(3) for j in range(3)]), axis=0)

    c = 64
    for si, n_layers in enumerate(STAGES):
        for _ in range(n_layers):
            s, b = bn(y.shape[1])
            params.extend([s, b])
            w = conv_w(y.shape[1], GROWTH, 3)
            y = np.concatenate([y, conv(bn_relu(y, s, b), w, 1, 1)], axis=1)
        if si == len(STAGES) - 1:
            break
        cin = y.shape[1]
        s, b = bn(cin)
        params.extend([s, b])
        w = conv_w(cin, cin // 2, 1)
        z = conv(bn_relu(y, s, b), w, 1, 0)
        y = 0.25 * (z[:, :, 0::2, 0::2] + z[:, :, 1::2, 0::2] + z[:, :, 0::2, 1::2] + z[:, :, 1::2, 1::2])

    s, b = bn(y.shape[1])
    fw = (rng.standard_normal((CLASSES, y.shape[1])) * 0.01).astype(np.float32)
    fb = np.zeros(CLASSES, np.float32)
    params.extend([s, b, fw.ravel(), fb])
    feat = bn_relu(y, s, b).mean(axis=(2, 3))
    logits = (feat @ fw.T + fb).astype(np.float32)

    np.concatenate([p.astype(np.float32).ravel() for p in params]).tofile("input/params.bin")
    logits.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
