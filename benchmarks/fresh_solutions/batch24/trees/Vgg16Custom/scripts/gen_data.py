#!/usr/bin/env python3
"""Data for deep_stack_classifier (NHWC, 224x224 RGB, batch 10).
The input is zero-padded from 3 to 8 channels so every NHWC pixel is 32 bytes;
the first conv weight gets matching zero rows."""
import os
import numpy as np

B, IMG, CPAD, CLASSES = 10, 224, 8, 1000
PLAN = [64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0]
rng = np.random.default_rng(3)


def conv3x3_nhwc(x, w, b):          # w: [co, ci, 3, 3]
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, wd, w.shape[0]), np.float32) + b
    for kh in range(3):
        for kw in range(3):
            out += xp[:, kh:kh + h, kw:kw + wd, :] @ w[:, :, kh, kw].T
    return out


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((B, 3, IMG, IMG), dtype=np.float32)
    h = np.zeros((B, IMG, IMG, CPAD), np.float32)
    h[..., :3] = x.transpose(0, 2, 3, 1)
    h.tofile("input/x_nhwc.bin")

    packed, cin = [], 3
    for i, co in enumerate(PLAN):
        if co == 0:
            continue
        bd = 1.0 / np.sqrt(cin * 9)
        w = rng.uniform(-bd, bd, (co, cin, 3, 3)).astype(np.float32)
        b = rng.uniform(-bd, bd, co).astype(np.float32)
        cpad = CPAD if cin == 3 else cin
        wp = np.zeros((co, cpad, 3, 3), np.float32)
        wp[:, :cin] = w
        packed += [wp.transpose(2, 3, 1, 0).reshape(9 * cpad, co), b]   # rows (kh, kw, ci)
        h = np.maximum(conv3x3_nhwc(h, wp, b), 0.0)
        if i + 1 < len(PLAN) and PLAN[i + 1] == 0:
            n, hh, ww, c = h.shape
            h = h.reshape(n, hh // 2, 2, ww // 2, 2, c).max(axis=(2, 4))
        cin = co

    feat = h.reshape(B, -1)                        # NHWC flatten
    dims = [(512 * 7 * 7, 4096), (4096, 4096), (4096, CLASSES)]
    for l, (k, n) in enumerate(dims):
        bd = 1.0 / np.sqrt(k)
        w = rng.uniform(-bd, bd, (n, k)).astype(np.float32)       # torch Linear layout
        b = rng.uniform(-bd, bd, n).astype(np.float32)
        if l == 0:   # torch flattens CHW; reorder columns to HWC
            w = w.reshape(n, 512, 7, 7).transpose(0, 2, 3, 1).reshape(n, k)
        packed += [w.T.copy(), b]
        feat = feat @ w.T + b
        if l < 2:
            feat = np.maximum(feat, 0.0)

    np.concatenate([p.reshape(-1) for p in packed]).astype(np.float32).tofile("input/params.bin")
    feat.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
