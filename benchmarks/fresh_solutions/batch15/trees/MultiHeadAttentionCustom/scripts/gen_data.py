#!/usr/bin/python3
# Inputs and golden output for headwise_self_attn (batch-first MHSA, packed in-projection).
import os
import numpy as np

B, L, E, H = 4, 256, 512, 8
D = E // H


def mhsa(x, w_in, b_in, w_out, b_out):
    x = x.astype(np.float64)
    qkv = x @ w_in.T.astype(np.float64) + b_in
    q, k, v = (qkv[..., i * E:(i + 1) * E].reshape(B, L, H, D).transpose(0, 2, 1, 3) for i in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    o = (p @ v).transpose(0, 2, 1, 3).reshape(B, L, E)
    return o @ w_out.T.astype(np.float64) + b_out


def main():
    rng = np.random.default_rng(11)
    x = rng.random((B, L, E), dtype=np.float32)
    a = np.sqrt(6.0 / (4 * E))
    w_in = rng.uniform(-a, a, (3 * E, E)).astype(np.float32)
    b_in = rng.normal(0, 0.02, 3 * E).astype(np.float32)
    w_out = rng.uniform(-1 / np.sqrt(E), 1 / np.sqrt(E), (E, E)).astype(np.float32)
    b_out = rng.normal(0, 0.02, E).astype(np.float32)
    y = mhsa(x, w_in, b_in, w_out, b_out).astype(np.float32)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w_in.tofile("input/in_proj_weight.bin")
    b_in.tofile("input/in_proj_bias.bin")
    w_out.tofile("input/out_proj_weight.bin")
    b_out.tofile("input/out_proj_bias.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
