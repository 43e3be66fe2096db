#!/usr/bin/env python3
import os
import numpy as np

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.rand(8, 512, 32, 32).astype(np.float32)
bias = np.random.rand(512).astype(np.float32)
x.tofile("input/x.bin")
bias.tofile("input/bias.bin")
(x + bias[None, :, None, None]).astype(np.float32).tofile("output/golden.bin")
