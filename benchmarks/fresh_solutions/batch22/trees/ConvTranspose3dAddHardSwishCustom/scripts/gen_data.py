#!/usr/bin/env python3
"""Data for upconv3d_skip_selfgate (transposed 3-D conv, k3 s2 p1 op1, + skip, s*hswish(s))."""
import os
import numpy as np

N, CI, CO = 2, 32, 64
D = H = W = 16
K, S, P, OP = 3, 2, 1, 1
OD = (D - 1) * S - 2 * P + K + OP


def transposed_conv3d(x, w, b):
    # scatter form: every input voxel spreads x * w[ci, co] over a 3x3x3 patch
    full = (D - 1) * S + K
    buf = np.zeros((N, CO, full, full, full), dtype=np.float64)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                contrib = np.einsum("nidhw,io->nodhw", x, w[:, :, kd, kh, kw])
                buf[:, :, kd:kd + S * D:S, kh:kh + S * H:S, kw:kw + S * W:S] += contrib
    # crop padding at the front, output_padding extends the back
    buf = np.pad(buf, ((0, 0), (0, 0), (0, OP), (0, OP), (0, OP)))
    y = buf[:, :, P:P + OD, P:P + OD, P:P + OD]
    return y + b[None, :, None, None, None]


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, CI, D, H, W).astype(np.float32)
    bound = 1.0 / np.sqrt(CO * K ** 3)
    w = np.random.uniform(-bound, bound, (CI, CO, K, K, K)).astype(np.float32)
    b = np.random.uniform(-bound, bound, (CO,)).astype(np.float32)
    skip = np.random.rand(N, CO, OD, OD, OD).astype(np.float32)

    s = transposed_conv3d(x.astype(np.float64), w.astype(np.float64), b.astype(np.float64)) + skip
    golden = s * (s * np.clip(s + 3.0, 0.0, 6.0) / 6.0)

    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")
    skip.tofile("input/skip.bin")
    golden.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
