#!/usr/bin/env python3
"""Random input + exact-erf GELU golden for erf_gated_unit."""
import math
import os
import numpy as np

ROWS, COLS = 2048, 16384

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
x = np.random.rand(ROWS, COLS).astype(np.float32)
erf = np.vectorize(math.erf, otypes=[np.float64])
try:
    from scipy.special import erf as fast_erf  # much faster when available
    erf = fast_erf
except ImportError:
    pass
y = 0.5 * x.astype(np.float64) * (1.0 + erf(x.astype(np.float64) / math.sqrt(2.0)))
x.tofile("input/x.bin")
y.astype(np.float32).tofile("output/golden.bin")
