#!/usr/bin/python3
"""Inputs / golden for pixel_token_attn: MHSA over the pixels of a (B, E, H, W) map + residual LayerNorm."""
import os
import numpy as np

B, E, HEADS, IH, IW = 2, 128, 4, 32, 32
L = IH * IW
D = E // HEADS
EPS = 1e-5


def softmax(a):
    a = a - a.max(axis=-1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=-1, keepdims=True)


def reference(x, w_in, b_in, w_out, b_out, g, beta):
    tok = x.reshape(B, E, L).transpose(0, 2, 1).astype(np.float64)   # (B, L, E)
    qkv = tok @ w_in.T + b_in                                          # (B, L, 3E)
    q, k, v = np.split(qkv, 3, axis=-1)
    split = lambda t: t.reshape(B, L, HEADS, D).transpose(0, 2, 1, 3)  # (B, h, L, d)
    q, k, v = split(q), split(k), split(v)
    att = softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(D))
    o = (att @ v).transpose(0, 2, 1, 3).reshape(B, L, E)
    y = o @ w_out.T + b_out + tok
    mu = y.mean(-1, keepdims=True)
    var = y.var(-1, keepdims=True)
    y = (y - mu) / np.sqrt(var + EPS) * g + beta
    return y.transpose(0, 2, 1).reshape(B, E, IH, IW)


if __name__ == "__main__":
    rs = np.random.RandomState(3)
    x = rs.rand(B, E, IH, IW).astype(np.float32)
    lim = np.sqrt(6.0 / (E + 3 * E))
    w_in = rs.uniform(-lim, lim, (3 * E, E)).astype(np.float32)
    b_in = (rs.randn(3 * E) * 0.02).astype(np.float32)
    w_out = rs.uniform(-1 / np.sqrt(E), 1 / np.sqrt(E), (E, E)).astype(np.float32)
    b_out = (rs.randn(E) * 0.02).astype(np.float32)
    g = (1.0 + 0.1 * rs.randn(E)).astype(np.float32)
    beta = (0.1 * rs.randn(E)).astype(np.float32)

    gold = reference(x, w_in, b_in, w_out, b_out, g, beta).astype(np.float32)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    for name, arr in [("x", x), ("in_proj_weight", w_in), ("in_proj_bias", b_in),
                      ("out_proj_weight", w_out), ("out_proj_bias", b_out),
                      ("ln_weight", g), ("ln_bias", beta)]:
        arr.tofile(f"input/{name}.bin")
    gold.tofile("output/golden.bin")
