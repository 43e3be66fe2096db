#!/usr/bin/env python3
"""Input, packed parameters and golden output for seg_net_rowsoftmax.

params.bin layout (float32, concatenated):
  5 encoder blocks (enc1..enc4, bottleneck), then decoder blocks dec4..dec1,
  each: w1 [co, ci*9], gamma1, beta1, w2 [co, co*9], gamma2, beta2
  up-convs up4..up1: w [co*4, ci] (rows ordered co, a, b), bias [co]
  head: w [out_c, F], bias [out_c]
The 3x3 conv biases are used for the golden but not shipped: batch-norm with
batch statistics removes them.
"""
import os
import numpy as np

N, IN_C, OUT_C, H, W, F = 8, 8, 4, 64, 512, 64
EPS = 1e-5
rng = np.random.default_rng(1234)


def uinit(shape, fan_in):
    b = 1.0 / np.sqrt(fan_in)
    return rng.uniform(-b, b, shape).astype(np.float32)


def conv3x3(x, w, b):
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = np.stack([xp[:, :, kh:kh + h, kw:kw + wd] for kh in range(3) for kw in range(3)], axis=2)
    cols = cols.reshape(n, c * 9, h * wd)                      # (c, tap) ordering
    out = np.einsum("ok,nkp->nop", w.reshape(w.shape[0], -1), cols, optimize=True)
    return (out + b[None, :, None]).reshape(n, -1, h, wd).astype(np.float32)


def bn_softmax(x, g, be):
    mu = x.mean(axis=(0, 2, 3), keepdims=True)
    var = x.var(axis=(0, 2, 3), keepdims=True)
    y = (x - mu) / np.sqrt(var + EPS) * g[None, :, None, None] + be[None, :, None, None]
    y = np.exp(y - y.max(axis=-1, keepdims=True))
    return (y / y.sum(axis=-1, keepdims=True)).astype(np.float32)


def make_block(ci, co, packed):
    p = {}
    for i, cin in ((1, ci), (2, co)):
        p[f"w{i}"] = uinit((co, cin, 3, 3), cin * 9)
        p[f"c{i}"] = uinit((co,), cin * 9)
        p[f"g{i}"] = np.ones(co, np.float32)
        p[f"b{i}"] = np.zeros(co, np.float32)
        packed += [p[f"w{i}"].reshape(-1), p[f"g{i}"], p[f"b{i}"]]
    return p


def run_block(x, p):
    x = bn_softmax(conv3x3(x, p["w1"], p["c1"]), p["g1"], p["b1"])
    return bn_softmax(conv3x3(x, p["w2"], p["c2"]), p["g2"], p["b2"])


def maxpool(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def upconv(x, w, b):     # w: torch layout [ci, co, 2, 2]
    n, ci, h, wd = x.shape
    co = w.shape[1]
    y = np.einsum("nihw,ioab->nohawb", x, w, optimize=True).reshape(n, co, 2 * h, 2 * wd)
    return (y + b[None, :, None, None]).astype(np.float32)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    ch = [F, 2 * F, 4 * F, 8 * F, 16 * F]
    packed = []
    enc = [make_block(IN_C, ch[0], packed)] + [make_block(ch[l - 1], ch[l], packed) for l in range(1, 5)]
    dec = {l: make_block(ch[l + 1], ch[l], packed) for l in range(3, -1, -1)}
    up = {}
    for l in range(3, -1, -1):
        w = uinit((ch[l + 1], ch[l], 2, 2), ch[l] * 4)
        b = uinit((ch[l],), ch[l] * 4)
        up[l] = (w, b)
        packed += [w.transpose(1, 2, 3, 0).reshape(-1), b]
    head_w = uinit((OUT_C, F), F)
    head_b = uinit((OUT_C,), F)
    packed += [head_w.reshape(-1), head_b]
    np.concatenate(packed).astype(np.float32).tofile("input/params.bin")

    x = rng.random((N, IN_C, H, W), dtype=np.float32)
    x.tofile("input/x.bin")

    skips = []
    h = x
    for l in range(5):
        h = run_block(h, enc[l])
        if l < 4:
            skips.append(h)
            h = maxpool(h)
    for l in range(3, -1, -1):
        h = upconv(h, *up[l])
        h = run_block(np.concatenate([h, skips[l]], axis=1), dec[l])
    y = np.einsum("of,nfhw->nohw", head_w, h, optimize=True) + head_b[None, :, None, None]
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
