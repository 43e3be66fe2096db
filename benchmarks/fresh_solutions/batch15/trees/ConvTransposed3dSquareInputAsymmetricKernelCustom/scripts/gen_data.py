#!/usr/bin/python3
# Inputs and golden output for deconv3d_rowwise (stride 1 transposed 3-D conv).
import os
import numpy as np

B, CIN, COUT = 2, 32, 64
D = H = W = 16
KD, KH, KW = 3, 5, 5


def transposed_conv3d(x, w):
    b, cin, d, h, wd = x.shape
    cout = w.shape[1]
    y = np.zeros((b, cout, d + KD - 1, h + KH - 1, wd + KW - 1), dtype=np.float64)
    xf = x.astype(np.float64)
    for a in range(KD):
        for i in range(KH):
            for j in range(KW):
                tap = w[:, :, a, i, j].astype(np.float64)            # (cin, cout)
                y[:, :, a:a + d, i:i + h, j:j + wd] += np.einsum("bcdhw,co->bodhw", xf, tap)
    return y.astype(np.float32)


def main():
    np.random.seed(7)
    x = np.random.rand(B, CIN, D, H, W).astype(np.float32)
    k = 1.0 / np.sqrt(COUT * KD * KH * KW)
    w = np.random.uniform(-k, k, size=(CIN, COUT, KD, KH, KW)).astype(np.float32)
    y = transposed_conv3d(x, w)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    y.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
