#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 256, 2048

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

x = (np.random.rand(ROWS, COLS) * 5.0).astype(np.float32)
lo = np.full((COLS,), -2.0, dtype=np.float32)
hi = np.full((COLS,), 2.0, dtype=np.float32)
# bounds broadcast along the leading axis
golden = np.minimum(np.maximum(x, lo[None, :]), hi[None, :]).astype(np.float32)

x.tofile("input/input_x.bin")
lo.tofile("input/input_min.bin")
hi.tofile("input/input_max.bin")
golden.tofile("output/golden.bin")
