import os
import numpy as np

N, C, H, W = 8, 512, 32, 32

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = np.random.uniform(0.0, 1.0, (N, C, H, W)).astype(np.float32)
bias = np.random.uniform(0.0, 1.0, (C,)).astype(np.float32)
golden = x + bias[None, :, None, None]

x.tofile("input/x.bin")
bias.tofile("input/bias.bin")
golden.astype(np.float32).tofile("output/golden.bin")
