#!/usr/bin/env python3
"""Input matrices and reference product for narrow_rank_gemm."""
import os
import numpy as np

M, N, K = 8192, 8192, 32

if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a = np.random.rand(M, K).astype(np.float32)
    b = np.random.rand(K, N).astype(np.float32)
    c = np.matmul(a, b).astype(np.float32)
    a.tofile("input/a.bin")
    b.tofile("input/b.bin")
    c.tofile("output/golden.bin")
