#!/usr/bin/env python3
"""Data for deconv2x_clip_gelu.  w is generated in the usual [ci, co, kh, kw]
layout for the golden and saved as [ci, kh, co, kw] for the kernel."""
import math
import os
import numpy as np

N, CIN, H, W, COUT, K, S = 128, 64, 64, 64, 128, 4, 2
ADD, MUL = 0.5, 2.0

os.makedirs("input", exist_ok=True)
os.makedirs("output", exist_ok=True)
rng = np.random.default_rng(7)
x = rng.random((N, CIN, H, W), dtype=np.float32)
bound = 1.0 / math.sqrt(COUT * K * K)
w = rng.uniform(-bound, bound, (CIN, COUT, K, K)).astype(np.float32)
b = rng.uniform(-bound, bound, COUT).astype(np.float32)
x.tofile("input/x.bin")
np.ascontiguousarray(w.transpose(0, 2, 1, 3)).tofile("input/w_arranged.bin")
b.tofile("input/b.bin")

OH, OW = (H - 1) * S + K, (W - 1) * S + K
try:
    from scipy.special import erf as verf
except ImportError:
    verf = np.vectorize(math.erf, otypes=[np.float64])
with open("output/golden.bin", "wb") as f:
    for n0 in range(0, N, 16):
        xs = x[n0:n0 + 16]
        y = np.zeros((xs.shape[0], COUT, OH, OW), np.float32)
        for kh in range(K):
            for kw in range(K):
                y[:, :, kh:kh + S * H:S, kw:kw + S * W:S] += np.einsum("nchw,co->nohw", xs, w[:, :, kh, kw],
                                                                       optimize=True)
        y += b[None, :, None, None]
        t = np.minimum(y + ADD, 0.0).astype(np.float64)
        g = 0.5 * t * (1.0 + verf(t / math.sqrt(2.0)))
        (g * MUL).astype(np.float32).tofile(f)
