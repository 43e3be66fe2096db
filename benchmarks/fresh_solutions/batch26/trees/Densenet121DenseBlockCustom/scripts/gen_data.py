#!/usr/bin/env python3
import os
import numpy as np

N, C0, G, LAYERS, H, W = 10, 32, 32, 6, 224, 224
EPS = 1e-5
rng = np.random.default_rng(3)

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = rng.random((N, C0, H, W), dtype=np.float32)
x.tofile("input/x.bin")
feat = x
for l in range(LAYERS):
    cin = C0 + l * G
    gamma = rng.uniform(0.5, 1.5, cin).astype(np.float32)
    beta = rng.uniform(-0.2, 0.2, cin).astype(np.float32)
    mean = rng.uniform(0.3, 0.7, cin).astype(np.float32)
    var = rng.uniform(0.05, 0.2, cin).astype(np.float32)
    scale = (gamma / np.sqrt(var + EPS)).astype(np.float32)
    shift = (beta - mean * scale).astype(np.float32)
    w = (rng.standard_normal((G, cin, 3, 3)) * np.sqrt(2.0 / (cin * 9))).astype(np.float32)
    w.tofile(f"input/layer{l}_w.bin")
    scale.tofile(f"input/layer{l}_scale.bin")
    shift.tofile(f"input/layer{l}_shift.bin")

    a = np.maximum(feat * scale[None, :, None, None] + shift[None, :, None, None], 0)
    a = np.pad(a, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((N, G, H, W), np.float32)
    for kh in range(3):
        for kw in range(3):
            y += np.einsum("nchw,oc->nohw", a[:, :, kh:kh + H, kw:kw + W], w[:, :, kh, kw], optimize=True)
    feat = np.concatenate([feat, y], axis=1)

feat.astype(np.float32).tofile("output/golden.bin")
