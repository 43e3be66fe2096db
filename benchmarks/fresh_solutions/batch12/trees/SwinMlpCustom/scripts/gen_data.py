#!/usr/bin/env python3
"""Reference for window_token_mixer (numpy only)."""
import os
import numpy as np

B, H, W, C = 10, 56, 56, 96
HEADS, WIN, SHIFT = 3, 7, 3
EPS = 1e-5


def layer_norm(x, g, b):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * g + b


def token_mix(x, g, b, w, bias):
    hd = C // HEADS
    area = WIN * WIN
    t = layer_norm(x, g, b).reshape(B, H, W, C)
    if SHIFT > 0:
        pl, pr = WIN - SHIFT, SHIFT
        t = np.pad(t, ((0, 0), (pl, pr), (pl, pr), (0, 0)))
    _, ph, pw, _ = t.shape
    nh, nw = ph // WIN, pw // WIN
    win = t.reshape(B, nh, WIN, nw, WIN, C).transpose(0, 1, 3, 2, 4, 5)
    win = win.reshape(-1, area, HEADS, hd)                      # [nWB, area, heads, hd]
    wm = w.reshape(HEADS, area, area)
    mixed = np.einsum("hpq,nqhd->nphd", wm, win) + bias.reshape(HEADS, area).T[None, :, :, None]
    mixed = mixed.reshape(B, nh, nw, WIN, WIN, C).transpose(0, 1, 3, 2, 4, 5).reshape(B, ph, pw, C)
    if SHIFT > 0:
        mixed = mixed[:, WIN - SHIFT:WIN - SHIFT + H, WIN - SHIFT:WIN - SHIFT + W, :]
    return x + mixed.reshape(B, H * W, C)


def main():
    rng = np.random.default_rng(2024)
    area = WIN * WIN
    x = rng.standard_normal((B, H * W, C)).astype(np.float32)
    gamma = (1.0 + 0.1 * rng.standard_normal(C)).astype(np.float32)
    beta = (0.1 * rng.standard_normal(C)).astype(np.float32)
    bound = 1.0 / np.sqrt(area)
    mix_w = rng.uniform(-bound, bound, (HEADS * area, area)).astype(np.float32)
    mix_b = rng.uniform(-bound, bound, (HEADS * area,)).astype(np.float32)

    y = token_mix(x.astype(np.float64), gamma, beta, mix_w, mix_b).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    gamma.tofile("input/gamma.bin")
    beta.tofile("input/beta.bin")
    mix_w.tofile("input/mix_w.bin")
    mix_b.tofile("input/mix_b.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
