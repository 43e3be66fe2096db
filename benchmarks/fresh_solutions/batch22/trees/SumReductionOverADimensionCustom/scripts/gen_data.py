#!/usr/bin/env python3
"""Input and golden data for axis_fold_sum ([B, R, I] -> [B, 1, I])."""
import os
import numpy as np

B, R, I = 16, 2048, 2048


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x = np.random.uniform(0.0, 1.0, size=(B, R, I)).astype(np.float32)
    # accumulate in float64 so the golden is not itself the noisy one
    golden = x.astype(np.float64).sum(axis=1, keepdims=True).astype(np.float32)
    x.tofile("input/input_x.bin")
    golden.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
