#!/usr/bin/env python3
"""Golden for: ConvTranspose3d(k=4, s=2, p=1, bias) -> normalise over last axis (64, affine)
-> GELU (tanh form, as the kernel) -> * scale. Sample batch = 2."""
import os
import numpy as np

N, CI, CO, D, H, W = 2, 32, 64, 16, 32, 32
K, S, P = 4, 2, 1
EPS, SCALE = 1e-5, 1.0


def conv_transpose3d(x, w, b):
    n, _, d, h, wd = x.shape
    full = np.zeros((n, CO, (d - 1) * S + K, (h - 1) * S + K, (wd - 1) * S + K), dtype=np.float32)
    for kd in range(K):
        for kh in range(K):
            for kw in range(K):
                # (n, ci, d, h, w) x (ci, co) -> (n, co, d, h, w)
                part = np.einsum("nidhw,io->nodhw", x, w[:, :, kd, kh, kw], optimize=True)
                full[:, :, kd:kd + S * d:S, kh:kh + S * h:S, kw:kw + S * wd:S] += part
    out = full[:, :, P:full.shape[2] - P, P:full.shape[3] - P, P:full.shape[4] - P]
    return out + b.reshape(1, -1, 1, 1, 1)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(3)
    x = rng.random((N, CI, D, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(CO * K * K * K)
    w = rng.uniform(-bound, bound, (CI, CO, K, K, K)).astype(np.float32)
    b = rng.uniform(-bound, bound, CO).astype(np.float32)
    ow = (W - 1) * S - 2 * P + K
    gamma = np.ones(ow, dtype=np.float32)
    beta = np.zeros(ow, dtype=np.float32)

    y = conv_transpose3d(x, w, b)
    mu = y.mean(axis=-1, keepdims=True)
    var = y.var(axis=-1, keepdims=True)
    y = (y - mu) / np.sqrt(var + EPS) * gamma + beta
    y = 0.5 * y * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (y + 0.044715 * y ** 3)))
    y = y * SCALE

    x.tofile("input/x.bin")
    w.tofile("input/weight.bin")
    b.tofile("input/bias.bin")  # not needed by the kernel (cancelled by the normalisation)
    gamma.tofile("input/gamma.bin")
    beta.tofile("input/beta.bin")
    y.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
