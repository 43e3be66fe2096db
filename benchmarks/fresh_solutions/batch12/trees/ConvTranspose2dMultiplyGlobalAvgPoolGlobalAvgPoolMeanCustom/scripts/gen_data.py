#!/usr/bin/env python3
"""Inputs and golden output for upconv_scaled_channel_mean."""
import os
import numpy as np

B, IC, OC, H, W = 16, 64, 128, 128, 128
K, S, P, OP = 3, 2, 1, 1
ALPHA = 0.5


def deconv2d(x, w, bias):
    """Plain scatter-style transposed convolution, x:[B,IC,H,W], w:[IC,OC,K,K]."""
    oh = (H - 1) * S - 2 * P + K + OP
    ow = (W - 1) * S - 2 * P + K + OP
    full_h = (H - 1) * S + K + OP
    full_w = (W - 1) * S + K + OP
    out = np.zeros((x.shape[0], OC, full_h, full_w), dtype=np.float32)
    for kh in range(K):
        for kw in range(K):
            contrib = np.einsum("bihw,io->bohw", x, w[:, :, kh, kw], optimize=True)
            out[:, :, kh:kh + S * H:S, kw:kw + S * W:S] += contrib
    out = out[:, :, P:P + oh, P:P + ow]
    return out + bias[None, :, None, None]


def main():
    rng = np.random.default_rng(7)
    x = rng.random((B, IC, H, W), dtype=np.float32)
    bound = 1.0 / np.sqrt(OC * K * K)
    w = rng.uniform(-bound, bound, (IC, OC, K, K)).astype(np.float32)
    bias = rng.uniform(-bound, bound, (OC,)).astype(np.float32)

    golden = np.zeros((B, OC), dtype=np.float32)
    for b0 in range(0, B, 4):  # chunk the batch to keep memory reasonable
        y = deconv2d(x[b0:b0 + 4], w, bias) * ALPHA
        golden[b0:b0 + 4] = y.mean(axis=(2, 3), dtype=np.float64).astype(np.float32)
    golden = golden.reshape(B, OC, 1, 1)

    # kernel wants the weight as [IC][kh*K+kw][OC]
    w_packed = np.ascontiguousarray(w.transpose(0, 2, 3, 1)).reshape(IC, K * K, OC)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("input/x.bin")
    w.tofile("input/w.bin")
    w_packed.tofile("input/w_packed.bin")
    bias.tofile("input/bias.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
