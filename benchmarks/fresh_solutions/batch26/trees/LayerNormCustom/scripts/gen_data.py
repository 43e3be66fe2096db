#!/usr/bin/env python3
import os
import numpy as np

ROWS, C, H, W = 8, 64, 256, 256
EPS = 1e-5

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.rand(ROWS, C, H, W).astype(np.float32)
gamma = np.random.uniform(0.8, 1.2, (C, H, W)).astype(np.float32)
beta = np.random.uniform(-0.2, 0.2, (C, H, W)).astype(np.float32)
x.tofile("input/x.bin")
gamma.tofile("input/gamma.bin")
beta.tofile("input/beta.bin")

x64 = x.reshape(ROWS, -1).astype(np.float64)
mean = x64.mean(axis=1, keepdims=True)
var = x64.var(axis=1, keepdims=True)
y = ((x64 - mean) / np.sqrt(var + EPS)).reshape(x.shape) * gamma + beta
y.astype(np.float32).tofile("output/golden.bin")
