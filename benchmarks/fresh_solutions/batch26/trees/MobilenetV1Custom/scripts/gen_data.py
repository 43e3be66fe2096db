#!/usr/bin/env python3
"""Inputs, folded weights and golden logits for the separable classifier sample."""
import os
import numpy as np

N, IMG, CLASSES = 10, 224, 1000
EPS = 1e-5
STAGES = [(32, 64, 1), (64, 128, 2), (128, 128, 1), (128, 256, 2), (256, 256, 1),
          (256, 512, 2), (512, 512, 1), (512, 512, 1), (512, 512, 1), (512, 512, 1),
          (512, 512, 1), (512, 1024, 2), (1024, 1024, 1)]
rng = np.random.default_rng(0)


def bn_fold(c):
    gamma = rng.uniform(0.5, 1.5, c).astype(np.float32)
    beta = rng.uniform(-0.1, 0.1, c).astype(np.float32)
    mean = rng.uniform(-0.1, 0.1, c).astype(np.float32)
    var = rng.uniform(0.5, 1.5, c).astype(np.float32)
    scale = gamma / np.sqrt(var + EPS)
    return scale.astype(np.float32), (beta - mean * scale).astype(np.float32)


def conv3x3(x, w, stride, groups):
    n, c, h, _ = x.shape
    co = w.shape[0]
    oh = (h + 2 - 3) // stride + 1
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, co, oh, oh), np.float32)
    cpg, opg = c // groups, co // groups
    for kh in range(3):
        for kw in range(3):
            patch = xp[:, :, kh:kh + stride * oh:stride, kw:kw + stride * oh:stride]
            if groups == 1:
                out += np.einsum('nchw,oc->nohw', patch, w[:, :, kh, kw])
            else:  # depthwise
                out += patch * w[:, 0, kh, kw][None, :, None, None]
    return out


def affine_relu(x, s, b):
    return np.maximum(x * s[None, :, None, None] + b[None, :, None, None], 0.0)


def save(name, arr):
    arr.astype(np.float32).tofile(os.path.join("input", name))


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((N, 3, IMG, IMG), dtype=np.float32)
    save("x.bin", x)

    w = (rng.standard_normal((32, 3, 3, 3)) * np.sqrt(2.0 / 27)).astype(np.float32)
    s, b = bn_fold(32)
    save("stem_w.bin", w); save("stem_scale.bin", s); save("stem_shift.bin", b)
    y = affine_relu(conv3x3(x, w, 2, 1), s, b)

    for i, (cin, cout, st) in enumerate(STAGES):
        dw = (rng.standard_normal((cin, 1, 3, 3)) * np.sqrt(2.0 / 9)).astype(np.float32)
        ds, db = bn_fold(cin)
        pw = (rng.standard_normal((cout, cin)) * np.sqrt(2.0 / cin)).astype(np.float32)
        ps, pb = bn_fold(cout)
        for tag, arr in (("dw_w", dw), ("dw_scale", ds), ("dw_shift", db),
                         ("pw_w", pw), ("pw_scale", ps), ("pw_shift", pb)):
            save(f"s{i}_{tag}.bin", arr)
        y = affine_relu(conv3x3(y, dw, st, cin), ds, db)
        y = affine_relu(np.einsum('nchw,oc->nohw', y, pw), ps, pb)

    fc_w = (rng.standard_normal((CLASSES, 1024)) / np.sqrt(1024)).astype(np.float32)
    fc_b = rng.uniform(-0.05, 0.05, CLASSES).astype(np.float32)
    save("fc_w.bin", fc_w); save("fc_b.bin", fc_b)
    pooled = y.mean(axis=(2, 3))
    logits = pooled @ fc_w.T + fc_b
    logits.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
