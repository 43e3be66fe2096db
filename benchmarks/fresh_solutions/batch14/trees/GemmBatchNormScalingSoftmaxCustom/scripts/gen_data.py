#!/usr/bin/env python3
import os
import numpy as np

BATCH, IN_F, OUT_F, EPS = 256, 2048, 2048, 1e-5

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(11)

x = rng.random((BATCH, IN_F), dtype=np.float32)
bound = 1.0 / np.sqrt(IN_F)
w = rng.uniform(-bound, bound, (OUT_F, IN_F)).astype(np.float32)
b = rng.uniform(-bound, bound, OUT_F).astype(np.float32)
gamma = rng.uniform(0.5, 1.5, OUT_F).astype(np.float32)
beta = rng.uniform(-0.5, 0.5, OUT_F).astype(np.float32)
scale = np.array([1.25], dtype=np.float32)

z = x.astype(np.float64) @ w.T + b
mean = z.mean(axis=0)
var = z.var(axis=0)                      # biased, as used for normalization in training mode
zn = (z - mean) / np.sqrt(var + EPS) * gamma + beta
zn = zn * scale[0]
zn = zn - zn.max(axis=1, keepdims=True)
e = np.exp(zn)
golden = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

for name, arr in dict(x=x, w=w, b=b, gamma=gamma, beta=beta, scale=scale).items():
    arr.tofile(f"input/{name}.bin")
golden.tofile("output/golden.bin")
