#!/usr/bin/env python3
# Parameters, input images and golden logits for inverted_bottleneck_net.
# BN is folded (gamma=1, beta=0, running mean 0 / var 1 as in a fresh network).
import os
import numpy as np

N, IMG, CLASSES, LAST = 10, 224, 1000, 1280
STAGES = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
          (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
rng = np.random.default_rng(1234)
blob = []
BN_SCALE = np.float32(1.0 / np.sqrt(1.0 + 1e-5))


def folded_bn(c):
    sc = np.full(c, BN_SCALE, np.float32)
    sh = np.zeros(c, np.float32)
    blob.extend([sc, sh])
    return sc, sh


def kaiming(shape, fan_out):
    return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_out)).astype(np.float32)


def clamp6(x):
    return np.clip(x, 0.0, 6.0)


def affine(x, sc, sh):
    return x * sc[None, :, None, None] + sh[None, :, None, None]


def pointwise(x, cout, clamp, res=None):
    w = kaiming((cout, x.shape[1]), cout)
    blob.append(w)
    sc, sh = folded_bn(cout)
    y = affine(np.einsum("oc,nchw->nohw", w, x, optimize=True), sc, sh)
    y = clamp6(y) if clamp else y
    return y + res if res is not None else y


def depthwise(x, stride):
    c = x.shape[1]
    w = kaiming((c, 3, 3), 9)
    blob.append(w)
    sc, sh = folded_bn(c)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ho = (x.shape[2] - 1) // stride + 1
    y = np.zeros((x.shape[0], c, ho, ho), np.float32)
    for i in range(3):
        for j in range(3):
            y += xp[:, :, i:i + stride * ho:stride, j:j + stride * ho:stride] * w[None, :, i, j, None, None]
    return clamp6(affine(y, sc, sh))


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = rng.random((N, 3, IMG, IMG), dtype=np.float32)
    x.tofile("input/image.bin")

    w = kaiming((32, 3, 3, 3), 32 * 9)
    blob.append(w.transpose(1, 2, 3, 0))  # [Cin][kh][kw][Cout]
    sc, sh = folded_bn(32)
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((N, 32, 112, 112), np.float32)
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + 224:2, j:j + 224:2], w[:, :, i, j], optimize=True)
    y = clamp6(affine(y, sc, sh))

    c = 32
    for t, oc, reps, s in STAGES:
        for r in range(reps):
            stride = s if r == 0 else 1
            h = pointwise(y, c * t, True) if t != 1 else y
            h = depthwise(h, stride)
            y = pointwise(h, oc, False, y if (stride == 1 and c == oc) else None)
            c = oc

    y = pointwise(y, LAST, True)
    fw = (rng.standard_normal((CLASSES, LAST)) * 0.01).astype(np.float32)
    fb = np.zeros(CLASSES, np.float32)
    blob.extend([fw, fb])
    logits = y.mean(axis=(2, 3)) @ fw.T + fb

    np.concatenate([a.astype(np.float32).ravel() for a in blob]).tofile("input/params.bin")
    logits.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
