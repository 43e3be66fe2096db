#!/usr/bin/env python3
# Generates x / weight / bias and the golden result of upconv_mish_clip_gain.
import os
import numpy as np

N, CI, CO, H, W = 8, 64, 64, 64, 64
K, S, P, OP = 3, 2, 1, 1
ADD, GAIN = 0.5, 2.0


def conv_transpose2d(x, w, b):
    n, ci, h, wd = x.shape
    co = w.shape[1]
    full_h = (h - 1) * S + K + OP
    full_w = (wd - 1) * S + K + OP
    full = np.zeros((n, co, full_h, full_w), dtype=np.float64)
    for kh in range(K):
        for kw in range(K):
            # (n, ci, h, w) x (ci, co) -> (n, co, h, w)
            part = np.einsum("nchw,cd->ndhw", x, w[:, :, kh, kw])
            full[:, :, kh:kh + (h - 1) * S + 1:S, kw:kw + (wd - 1) * S + 1:S] += part
    oh = (h - 1) * S - 2 * P + K + OP
    ow = (wd - 1) * S - 2 * P + K + OP
    return full[:, :, P:P + oh, P:P + ow] + b.reshape(1, -1, 1, 1)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(7)
    bound = 1.0 / np.sqrt(CO * K * K)
    x = rng.random((N, CI, H, W), dtype=np.float32)
    w = rng.uniform(-bound, bound, (CI, CO, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, (CO,)).astype(np.float32)

    v = conv_transpose2d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    mish = v * np.tanh(np.log1p(np.exp(np.minimum(v, 20.0))))
    y = np.clip(mish + ADD, -1.0, 1.0) * GAIN

    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
