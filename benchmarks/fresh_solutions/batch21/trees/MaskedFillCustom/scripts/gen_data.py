#!/usr/bin/env python3
"""x, a random 0/1 byte mask, and x with -inf written wherever the mask is set."""
import os
import numpy as np

SHAPE = (16, 512, 512)

x = np.random.rand(*SHAPE).astype(np.float32)
mask = np.random.randint(0, 2, SHAPE).astype(np.bool_)
golden = np.where(mask, np.float32(-np.inf), x).astype(np.float32)

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x.tofile("input/x.bin")
mask.astype(np.uint8).tofile("input/mask.bin")
golden.tofile("output/golden.bin")
