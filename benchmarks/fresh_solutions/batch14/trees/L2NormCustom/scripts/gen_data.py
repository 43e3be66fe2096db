import os
import numpy as np

ROWS, COLS = 1024, 4095

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
norm = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=1, keepdims=True))
golden = (x / norm).astype(np.float32)
x.tofile("input/x.bin")
golden.tofile("output/golden.bin")
