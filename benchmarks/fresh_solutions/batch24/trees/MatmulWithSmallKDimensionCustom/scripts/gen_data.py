#!/usr/bin/env python3
# A (M, K) and B (K, N) uniform in [0, 1); golden C = A @ B in float32.
import os
import numpy as np

M, N, K = 32768, 32768, 64

if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a = np.random.rand(M, K).astype(np.float32)
    b = np.random.rand(K, N).astype(np.float32)
    a.tofile("input/a.bin")
    b.tofile("input/b.bin")
    with open("output/golden.bin", "wb") as f:
        for r in range(0, M, 2048):          # 4 GiB result, write in row slabs
            (a[r:r + 2048] @ b).astype(np.float32).tofile(f)
