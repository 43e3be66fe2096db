#!/usr/bin/env python3
# ids [512, 128] int32 in [0, 100000), table [100000, 768] float32, golden = table[ids]
import os
import numpy as np

BATCH, SEQ = 512, 128
VOCAB, DIM = 100000, 768

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)

rng = np.random.default_rng(2024)
ids = rng.integers(0, VOCAB, size=(BATCH, SEQ), dtype=np.int32)
table = rng.standard_normal((VOCAB, DIM), dtype=np.float32)  # N(0,1) like a fresh embedding
golden = table[ids]

ids.tofile("input/ids.bin")
table.tofile("input/table.bin")
golden.astype(np.float32).tofile("output/golden.bin")
