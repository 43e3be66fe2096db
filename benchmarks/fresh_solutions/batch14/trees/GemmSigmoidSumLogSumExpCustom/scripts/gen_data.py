#!/usr/bin/env python3
# Inputs + golden for mlp_logit_pool: two dense layers, sigmoid between, log-sum-exp over features.
import os
import numpy as np

BATCH, IN_F, HID_F, OUT_F = 256, 1024, 2048, 512


def linear_init(rng, fan_out, fan_in):
    k = 1.0 / np.sqrt(fan_in)
    w = rng.uniform(-k, k, (fan_out, fan_in)).astype(np.float32)
    b = rng.uniform(-k, k, fan_out).astype(np.float32)
    return w, b


def main():
    rng = np.random.default_rng(2024)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)

    x = rng.random((BATCH, IN_F), dtype=np.float32)
    w1, b1 = linear_init(rng, HID_F, IN_F)
    w2, b2 = linear_init(rng, OUT_F, HID_F)

    h = 1.0 / (1.0 + np.exp(-(x.astype(np.float64) @ w1.T + b1)))
    z = h @ w2.T + b2
    m = z.max(axis=1, keepdims=True)
    golden = (np.log(np.exp(z - m).sum(axis=1, keepdims=True)) + m).reshape(BATCH).astype(np.float32)

    for name, arr in (("x", x), ("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2)):
        arr.tofile(f"input/{name}.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
