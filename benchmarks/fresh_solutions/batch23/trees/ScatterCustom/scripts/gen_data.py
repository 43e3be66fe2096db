#!/usr/bin/env python3
"""base (zeros), positions, values and the golden result for row_slot_write."""
import os
import numpy as np

ROWS, WIDTH, COUNT = 64, 8192, 4096

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

base = np.zeros((ROWS, WIDTH), dtype=np.float32)
pos = np.random.randint(0, WIDTH, size=(ROWS, COUNT)).astype(np.int64)
val = np.random.rand(ROWS, COUNT).astype(np.float32)

golden = base.copy()
rows = np.repeat(np.arange(ROWS), COUNT).reshape(ROWS, COUNT)
# numpy fancy assignment applies writes in order, so the last duplicate wins,
# which matches the kernel's sequential per-row loop
golden[rows, pos] = val

base.tofile("input/input_x.bin")
pos.tofile("input/input_idx.bin")
val.tofile("input/input_updates.bin")
golden.tofile("output/golden.bin")
