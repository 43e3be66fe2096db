#!/usr/bin/python3
# Generates input/x.bin, input/w.bin and output/golden.bin for deconv2d_wide_kernel.
import os
import numpy as np

N, CIN, COUT = 2, 64, 128
HIN, WIN = 32, 64
KH, KW = 3, 5


def deconv2d(x, w):
    n, cin, hin, win = x.shape
    _, cout, kh, kw = w.shape
    y = np.zeros((n, cout, hin + kh - 1, win + kw - 1), dtype=np.float32)
    # scatter form: every input pixel spreads over a KH x KW window of the output
    for i in range(kh):
        for j in range(kw):
            # (n, cin, h, w) x (cin, cout) -> (n, cout, h, w)
            contrib = np.einsum("nchw,cd->ndhw", x, w[:, :, i, j])
            y[:, :, i:i + hin, j:j + win] += contrib
    return y


def gen_golden_data():
    x = np.random.rand(N, CIN, HIN, WIN).astype(np.float32)
    bound = 1.0 / np.sqrt(COUT * KH * KW)
    w = np.random.uniform(-bound, bound, (CIN, COUT, KH, KW)).astype(np.float32)
    golden = deconv2d(x, w).astype(np.float32)

    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    x.tofile("./input/x.bin")
    w.tofile("./input/w.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
