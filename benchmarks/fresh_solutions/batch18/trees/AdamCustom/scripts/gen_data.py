#!/usr/bin/env python3
import os
import numpy as np

ROWS, COLS = 512, 2048
LR, B1, B2, EPS, STEP = 1e-3, 0.9, 0.999, 1e-8, 1


def golden(w, g, m, v):
    m = B1 * m + (1 - B1) * g
    v = B2 * v + (1 - B2) * g * g
    m_hat = m / (1 - B1 ** STEP)
    v_hat = v / (1 - B2 ** STEP)
    return (w - LR * m_hat / (np.sqrt(v_hat) + EPS)).astype(np.float32)


if __name__ == "__main__":
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    w = np.random.rand(ROWS, COLS).astype(np.float32)
    g = np.random.rand(ROWS, COLS).astype(np.float32)
    m = np.zeros((ROWS, COLS), dtype=np.float32)
    v = np.zeros((ROWS, COLS), dtype=np.float32)
    w.tofile("input/param.bin")
    g.tofile("input/grad.bin")
    m.tofile("input/exp_avg.bin")
    v.tofile("input/exp_avg_sq.bin")
    golden(w, g, m, v).tofile("output/golden.bin")
