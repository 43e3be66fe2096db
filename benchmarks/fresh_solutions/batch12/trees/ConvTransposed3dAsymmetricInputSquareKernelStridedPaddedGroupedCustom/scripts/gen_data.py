#!/usr/bin/env python3
"""Random input + golden output for grouped_volume_upsample."""
import os
import numpy as np

N, CIN, COUT, G = 4, 32, 32, 4
D, H, W = 32, 64, 128
K, S, P = 3, 2, 1


def deconv3d_grouped(x, w):
    icg, ocg = CIN // G, COUT // G
    fd, fh, fw = (D - 1) * S + K, (H - 1) * S + K, (W - 1) * S + K
    od, oh, ow = fd - 2 * P, fh - 2 * P, fw - 2 * P
    full = np.zeros((x.shape[0], COUT, fd, fh, fw), dtype=np.float32)
    for g in range(G):
        xs = x[:, g * icg:(g + 1) * icg]
        ws = w[g * icg:(g + 1) * icg]                 # [icg, ocg, K, K, K]
        for a in range(K):
            for b in range(K):
                for c in range(K):
                    part = np.einsum("nidhw,io->nodhw", xs, ws[:, :, a, b, c], optimize=True)
                    full[:, g * ocg:(g + 1) * ocg, a:a + S * D:S, b:b + S * H:S, c:c + S * W:S] += part
    return full[:, :, P:P + od, P:P + oh, P:P + ow]


def main():
    rng = np.random.default_rng(11)
    x = rng.random((N, CIN, D, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt((COUT // G) * K ** 3)
    w = rng.uniform(-bound, bound, (CIN, COUT // G, K, K, K)).astype(np.float32)
    y = np.concatenate([deconv3d_grouped(x[i:i + 1], w) for i in range(N)], axis=0)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    np.ascontiguousarray(y).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
