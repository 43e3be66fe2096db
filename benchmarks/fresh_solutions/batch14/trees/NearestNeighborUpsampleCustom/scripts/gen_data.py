import os
import numpy as np

N, C, H, W, S = 16, 128, 32, 32, 4

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.rand(N, C, H, W).astype(np.float32)
# nearest neighbour with an integer factor == repeat along both spatial axes
golden = np.repeat(np.repeat(x, S, axis=2), S, axis=3)
x.tofile("input/x.bin")
golden.astype(np.float32).tofile("output/golden.bin")
