#!/usr/bin/env python3
"""Parameters, inputs and golden output for text_image_attend.

Weights are written transposed, (in_features, out_features), as the dense kernel expects.
"""
import os
import numpy as np

B, LT, LI, ET, EI, H = 4, 32, 196, 256, 512, 8
D = ET // H


def dense_params(rng, fan_in, fan_out):
    lim = 1.0 / np.sqrt(fan_in)
    w = rng.uniform(-lim, lim, (fan_out, fan_in)).astype(np.float32)
    b = rng.uniform(-lim, lim, (fan_out,)).astype(np.float32)
    return w, b


def softmax(x):
    x = x - x.max(axis=-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


def main():
    rng = np.random.default_rng(7)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)

    text = rng.random((B, LT, ET), dtype=np.float32)
    img = rng.random((B, LI, EI), dtype=np.float32)
    params = {
        "q_proj": dense_params(rng, ET, ET),
        "kv_proj": dense_params(rng, EI, ET),
        "in_q": dense_params(rng, ET, ET),
        "in_k": dense_params(rng, ET, ET),
        "in_v": dense_params(rng, ET, ET),
        "out": dense_params(rng, ET, ET),
    }

    def lin(x, name):
        w, b = params[name]
        return x.astype(np.float64) @ w.T.astype(np.float64) + b

    q = lin(text, "q_proj")
    kv = lin(img, "kv_proj")
    Q = lin(q, "in_q").reshape(B, LT, H, D).transpose(0, 2, 1, 3)
    K = lin(kv, "in_k").reshape(B, LI, H, D).transpose(0, 2, 1, 3)
    V = lin(kv, "in_v").reshape(B, LI, H, D).transpose(0, 2, 1, 3)
    p = softmax(Q @ K.transpose(0, 1, 3, 2) / np.sqrt(D))
    attn = (p @ V).transpose(0, 2, 1, 3).reshape(B, LT, ET)
    out = lin(attn, "out")

    text.tofile("input/text.bin")
    img.tofile("input/img.bin")
    for name, (w, b) in params.items():
        np.ascontiguousarray(w.T).tofile(f"input/{name}_wt.bin")
        b.tofile(f"input/{name}_b.bin")
    out.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
