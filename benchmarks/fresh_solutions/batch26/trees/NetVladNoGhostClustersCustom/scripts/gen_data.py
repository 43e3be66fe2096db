#!/usr/bin/env python3
import os
import numpy as np

B, N, D, K, EPS = 256, 100, 512, 32, 1e-5
rng = np.random.default_rng(11)
os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = rng.random((B, N, D), dtype=np.float32)
assign = (rng.standard_normal((D, K)) / np.sqrt(D)).astype(np.float32)
words = (rng.standard_normal((D, K)) / np.sqrt(D)).astype(np.float32)
gamma, beta = np.ones(K, np.float32), np.zeros(K, np.float32)
r_mean, r_var = np.zeros(K, np.float32), np.ones(K, np.float32)
bn_scale = (gamma / np.sqrt(r_var + EPS)).astype(np.float32)
bn_shift = (beta - r_mean * bn_scale).astype(np.float32)

x.tofile("input/x.bin")
np.ascontiguousarray(assign.T).tofile("input/assign_t.bin")
np.ascontiguousarray(words.T).tofile("input/words_t.bin")
bn_scale.tofile("input/bn_scale.bin")
bn_shift.tofile("input/bn_shift.bin")

logits = (x.reshape(-1, D) @ assign) * bn_scale + bn_shift
logits -= logits.max(axis=1, keepdims=True)
p = np.exp(logits)
p = (p / p.sum(axis=1, keepdims=True)).reshape(B, N, K)
vlad = np.einsum("bnk,bnd->bdk", p, x) - p.sum(axis=1)[:, None, :] * words[None]
vlad /= np.maximum(np.linalg.norm(vlad, axis=1, keepdims=True), 1e-12)
vlad = vlad.reshape(B, D * K)
vlad /= np.maximum(np.linalg.norm(vlad, axis=1, keepdims=True), 1e-12)
vlad.astype(np.float32).tofile("output/golden.bin")
