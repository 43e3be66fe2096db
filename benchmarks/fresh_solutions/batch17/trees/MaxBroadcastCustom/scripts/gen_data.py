#!/usr/bin/env python3
import os
import numpy as np


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a = np.random.rand(16, 1, 1024).astype(np.float32)
    b = np.random.rand(1, 256, 1).astype(np.float32)
    out = np.maximum(a, b)  # numpy broadcasting -> (16, 256, 1024)
    a.tofile("input/a.bin")
    b.tofile("input/b.bin")
    out.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
