#!/usr/bin/env python3
"""Random weights, input and numpy golden for token_mixing_attention."""
import os
import numpy as np

B, S, E, H = 16, 256, 512, 8
D = E // H


def xavier(rng, shape):
    fan_out, fan_in = shape
    a = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-a, a, shape).astype(np.float32)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(42)
    x = rng.random((B, S, E), dtype=np.float32)
    w_in = xavier(rng, (3 * E, E))
    b_in = rng.uniform(-0.05, 0.05, 3 * E).astype(np.float32)
    w_out = xavier(rng, (E, E))
    b_out = rng.uniform(-0.05, 0.05, E).astype(np.float32)

    xd = x.astype(np.float64)
    qkv = xd @ w_in.T.astype(np.float64) + b_in
    q, k, v = np.split(qkv, 3, axis=-1)
    # (B, S, E) -> (B, H, S, D)
    q = q.reshape(B, S, H, D).transpose(0, 2, 1, 3)
    k = k.reshape(B, S, H, D).transpose(0, 2, 1, 3)
    v = v.reshape(B, S, H, D).transpose(0, 2, 1, 3)
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    p = s / s.sum(axis=-1, keepdims=True)
    ctx = (p @ v).transpose(0, 2, 1, 3).reshape(B, S, E)
    y = ctx @ w_out.T.astype(np.float64) + b_out

    x.tofile("input/x.bin")
    w_in.tofile("input/in_proj_weight.bin")
    b_in.tofile("input/in_proj_bias.bin")
    w_out.tofile("input/out_proj_weight.bin")
    b_out.tofile("input/out_proj_bias.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
