#!/usr/bin/python3
# indices (64, 128) int64, table (32000, 768) float32, golden (64, 128, 768) float32
import os
import numpy as np

BATCH, SEQ, VOCAB, DIM = 64, 128, 32000, 768

if __name__ == "__main__":
    rng = np.random.default_rng(5)
    table = rng.standard_normal((VOCAB, DIM), dtype=np.float32)   # nn.Embedding init is N(0, 1)
    ids = rng.integers(0, VOCAB, size=(BATCH, SEQ), dtype=np.int64)
    golden = table[ids]
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    ids.tofile("input/indices.bin")
    table.tofile("input/table.bin")
    golden.tofile("output/golden.bin")
