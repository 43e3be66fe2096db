#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 2048, 16384

os.makedirs("./input", exist_ok=True)
os.makedirs("./output", exist_ok=True)

# shift the uniform samples so that roughly half of them are negative
x = (np.random.uniform(0.0, 1.0, (ROWS, COLS)) - 0.5).astype(np.float32)
golden = np.maximum(x, 0.0).astype(np.float32)

x.tofile("./input/input_x.bin")
golden.tofile("./output/golden.bin")
