#!/usr/bin/env python3
# Two row-stochastic matrices and the batch-mean relative entropy between them.
import os
import numpy as np

ROWS, COLS = 1024, 4096


def row_softmax(a):
    a = a - a.max(axis=1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=1, keepdims=True)


rng = np.random.default_rng(11)
scale = rng.random()
pred = row_softmax(rng.random((ROWS, COLS)) * scale).astype(np.float32)
target = row_softmax(rng.random((ROWS, COLS))).astype(np.float32)

p64, t64 = pred.astype(np.float64), target.astype(np.float64)
loss = np.sum(t64 * (np.log(t64) - np.log(p64))) / ROWS

os.makedirs('input', exist_ok=True)
os.makedirs('output', exist_ok=True)
pred.tofile('input/pred.bin')
target.tofile('input/target.bin')
np.array([loss], dtype=np.float32).tofile('output/golden.bin')
print('golden loss', loss)
