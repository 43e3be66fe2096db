#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 512, 32768

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = np.random.uniform(0.0, 1.0, (ROWS, COLS)).astype(np.float32)
golden = np.cumsum(x.astype(np.float64), axis=1).astype(np.float32)

x.tofile("input/input_x.bin")
golden.tofile("output/golden.bin")
