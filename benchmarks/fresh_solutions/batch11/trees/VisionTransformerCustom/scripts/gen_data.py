#!/usr/bin/env python3
"""Inputs, weights and numpy reference logits for the patch-token classifier sample."""
import math
import os

import numpy as np

B, C, S, P = 2, 3, 224, 16
G = S // P
T = G * G + 1
D, DEPTH, HEADS, MLP, CLASSES = 512, 6, 8, 2048, 10
HD = D // HEADS


def layer_norm(x, g, b, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def gelu(x):
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def dense(x, w_t, b):
    # weights are stored already transposed: (in, out)
    return x @ w_t + b


def main():
    rng = np.random.default_rng(7)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)

    def param(name, shape, scale, offset=0.0):
        arr = (offset + rng.standard_normal(shape) * scale).astype(np.float32)
        arr.tofile(os.path.join("input", name))
        return arr.astype(np.float64)

    img = rng.random((B, C, S, S), dtype=np.float32)
    img.tofile("input/image.bin")

    wp = param("patch_w.bin", (C * P * P, D), 1 / math.sqrt(C * P * P))
    bp = param("patch_b.bin", (D,), 0.02)
    cls = param("cls.bin", (D,), 1.0)
    pos = param("pos.bin", (T, D), 1.0)

    # patches: unfold then a raw reshape (no permute), i.e. flat order (c, ph, pw, i, j)
    x = img.astype(np.float64).reshape(B, C, G, P, G, P).transpose(0, 1, 2, 4, 3, 5)
    x = x.reshape(B, G * G, C * P * P)
    x = dense(x, wp, bp)
    x = np.concatenate([np.broadcast_to(cls, (B, 1, D)), x], axis=1) + pos  # (B, T, D)

    for l in range(DEPTH):
        pre = f"layer{l}_"
        wqkv = param(pre + "wqkv.bin", (D, 3 * D), 1 / math.sqrt(D))
        bqkv = param(pre + "bqkv.bin", (3 * D,), 0.02)
        wo = param(pre + "wo.bin", (D, D), 1 / math.sqrt(D))
        bo = param(pre + "bo.bin", (D,), 0.02)
        g1 = param(pre + "ln1_g.bin", (D,), 0.05, offset=1.0)
        be1 = param(pre + "ln1_b.bin", (D,), 0.02)
        w1 = param(pre + "w1.bin", (D, MLP), 1 / math.sqrt(D))
        b1 = param(pre + "b1.bin", (MLP,), 0.02)
        w2 = param(pre + "w2.bin", (MLP, D), 1 / math.sqrt(MLP))
        b2 = param(pre + "b2.bin", (D,), 0.02)
        g2 = param(pre + "ln2_g.bin", (D,), 0.05, offset=1.0)
        be2 = param(pre + "ln2_b.bin", (D,), 0.02)

        # attention runs along axis 0 (the images) for every token position
        qkv = dense(x, wqkv, bqkv)                       # (B, T, 3D)
        q = qkv[..., :D].reshape(B, T, HEADS, HD)
        k = qkv[..., D:2 * D].reshape(B, T, HEADS, HD)
        v = qkv[..., 2 * D:].reshape(B, T, HEADS, HD)
        sc = np.einsum("sthd,uthd->thsu", q, k) / math.sqrt(HD)
        sc = np.exp(sc - sc.max(-1, keepdims=True))
        sc /= sc.sum(-1, keepdims=True)
        att = np.einsum("thsu,uthd->sthd", sc, v).reshape(B, T, D)
        x = layer_norm(x + dense(att, wo, bo), g1, be1)
        h = np.maximum(dense(x, w1, b1), 0.0)
        x = layer_norm(x + dense(h, w2, b2), g2, be2)

    hw1 = param("head_w1.bin", (D, MLP), 1 / math.sqrt(D))
    hb1 = param("head_b1.bin", (MLP,), 0.02)
    hw2 = param("head_w2.bin", (MLP, CLASSES), 1 / math.sqrt(MLP))
    hb2 = param("head_b2.bin", (CLASSES,), 0.02)
    logits = dense(gelu(dense(x[:, 0], hw1, hb1)), hw2, hb2)
    logits.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
