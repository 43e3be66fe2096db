#!/usr/bin/env python3
"""Data for banded_mha: multi-head self attention restricted to |i - j| band, packed q/k/v
projection (3E x E) + output projection (E x E), float32."""
import os
import numpy as np

B, S, E, H, WIN = 16, 128, 512, 4, 32
D = E // H


def band_mask(s, w):
    i = np.arange(s)[:, None]
    j = np.arange(s)[None, :]
    return (j >= i - w) & (j < i + w)  # True = may attend


def softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(7)
    x = rng.random((B, S, E), dtype=np.float32)
    lim = np.sqrt(6.0 / (E + 3 * E))  # xavier-uniform like the packed projection
    w_in = rng.uniform(-lim, lim, (3 * E, E)).astype(np.float32)
    b_in = np.zeros(3 * E, dtype=np.float32)
    lo = 1.0 / np.sqrt(E)
    w_out = rng.uniform(-lo, lo, (E, E)).astype(np.float32)
    b_out = np.zeros(E, dtype=np.float32)

    qkv = x.reshape(-1, E) @ w_in.T + b_in
    q, k, v = np.split(qkv.reshape(B, S, 3 * E), 3, axis=-1)
    q = q.reshape(B, S, H, D).transpose(0, 2, 1, 3)
    k = k.reshape(B, S, H, D).transpose(0, 2, 1, 3)
    v = v.reshape(B, S, H, D).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    scores = np.where(band_mask(S, WIN), scores, -np.inf)
    ctx = softmax(scores) @ v
    ctx = ctx.transpose(0, 2, 1, 3).reshape(B * S, E)
    out = (ctx @ w_out.T + b_out).reshape(B, S, E)

    x.tofile("input/x.bin")
    w_in.tofile("input/in_proj_weight.bin")
    b_in.tofile("input/in_proj_bias.bin")
    w_out.tofile("input/out_proj_weight.bin")
    b_out.tofile("input/out_proj_bias.bin")
    out.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
