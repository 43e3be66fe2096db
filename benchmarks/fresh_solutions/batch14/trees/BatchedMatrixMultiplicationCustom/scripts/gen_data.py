import os
import numpy as np

BATCH, M, K, N = 16, 512, 1024, 2048


def gen():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a = np.random.rand(BATCH, M, K).astype(np.float32)
    b = np.random.rand(BATCH, K, N).astype(np.float32)
    c = np.matmul(a, b).astype(np.float32)
    a.tofile("input/a.bin")
    b.tofile("input/b.bin")
    c.tofile("output/golden.bin")


if __name__ == "__main__":
    gen()
