import os
import numpy as np


def main():
    a, j, k = 64, 512, 64
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    mask = np.random.randint(0, 2, size=(1, j, 1)).astype(np.bool_)
    x = np.random.rand(a, j, k).astype(np.float32)
    y = np.random.rand(a, j, k).astype(np.float32)
    out = np.where(mask, x, y).astype(np.float32)
    mask.astype(np.uint8).tofile("input/mask.bin")   # one byte per flag
    x.tofile("input/x.bin")
    y.tofile("input/y.bin")
    out.tofile("output/golden.bin")


if __name__ == "__main__":
    main()
