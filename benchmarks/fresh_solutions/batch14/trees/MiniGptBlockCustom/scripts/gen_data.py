#!/usr/bin/env python3
"""Random weights + input and a float64 numpy reference for prenorm_decoder_layer."""
import math
import os

import numpy as np

B, T, C, NH = 2, 128, 768, 8
HD = C // NH
FF = 4 * C
EPS = 1e-5


def layer_norm(x, g, b):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * g + b


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def linear(rng, n_out, n_in):
    k = 1.0 / math.sqrt(n_in)
    return (rng.uniform(-k, k, (n_out, n_in)).astype(np.float32),
            rng.uniform(-k, k, n_out).astype(np.float32))


def main():
    rng = np.random.default_rng(0)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)

    p = {}
    p["x"] = rng.random((B, T, C), dtype=np.float32)
    p["ln1_w"] = np.ones(C, np.float32)
    p["ln1_b"] = np.zeros(C, np.float32)
    p["attn_w"], p["attn_b"] = linear(rng, 3 * C, C)
    p["proj_w"], p["proj_b"] = linear(rng, C, C)
    p["ln2_w"] = np.ones(C, np.float32)
    p["ln2_b"] = np.zeros(C, np.float32)
    p["fc_w"], p["fc_b"] = linear(rng, FF, C)
    p["out_w"], p["out_b"] = linear(rng, C, FF)

    f = {k: v.astype(np.float64) for k, v in p.items()}
    x = f["x"]
    a = layer_norm(x, f["ln1_w"], f["ln1_b"]) @ f["attn_w"].T + f["attn_b"]
    q, k, v = np.split(a, 3, axis=-1)
    heads = lambda t: t.reshape(B, T, NH, HD).transpose(0, 2, 1, 3)
    q, k, v = heads(q), heads(k), heads(v)
    s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(HD)
    s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)
    s = np.exp(s - s.max(-1, keepdims=True))
    s /= s.sum(-1, keepdims=True)
    att = (s @ v).transpose(0, 2, 1, 3).reshape(B, T, C)
    h = x + att @ f["proj_w"].T + f["proj_b"]
    m = gelu_tanh(layer_norm(h, f["ln2_w"], f["ln2_b"]) @ f["fc_w"].T + f["fc_b"])
    y = h + m @ f["out_w"].T + f["out_b"]

    for name, arr in p.items():
        arr.tofile(f"input/{name}.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
