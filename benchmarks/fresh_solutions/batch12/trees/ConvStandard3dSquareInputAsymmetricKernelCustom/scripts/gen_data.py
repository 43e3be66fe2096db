#!/usr/bin/env python3
import os
import numpy as np

N, CIN, COUT = 16, 3, 64
D = H = W = 64
KD, KH, KW = 3, 5, 7


def conv3d_valid(x, f):
    od, oh, ow = D - KD + 1, H - KH + 1, W - KW + 1
    y = np.zeros((x.shape[0], COUT, od, oh, ow), dtype=np.float32)
    for a in range(KD):
        for b in range(KH):
            for c in range(KW):
                patch = x[:, :, a:a + od, b:b + oh, c:c + ow]
                y += np.einsum("ncdhw,oc->nodhw", patch, f[:, :, a, b, c], optimize=True)
    return y


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.rand(N, CIN, D, H, W).astype(np.float32)
    bound = 1.0 / np.sqrt(CIN * KD * KH * KW)
    f = np.random.uniform(-bound, bound, (COUT, CIN, KD, KH, KW)).astype(np.float32)

    y = np.concatenate([conv3d_valid(x[i:i + 2], f) for i in range(0, N, 2)], axis=0)

    x.tofile("input/x.bin")
    f.tofile("input/filter.bin")
    # [ci][a][b][c][co] so that one tap's weights for all output channels are contiguous
    np.ascontiguousarray(f.transpose(1, 2, 3, 4, 0)).tofile("input/filter_packed.bin")
    y.tofile("output/golden.bin")
