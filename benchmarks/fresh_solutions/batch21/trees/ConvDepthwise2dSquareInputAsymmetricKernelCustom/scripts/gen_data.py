import os
import numpy as np

N, C, H, W = 4, 8, 256, 256
K, DIL = 3, 1

rng = np.random.default_rng(5)
x = rng.random((N, C, H, W), dtype=np.float32)
bound = 1.0 / np.sqrt(K)
weight = rng.uniform(-bound, bound, (C, K)).astype(np.float32)  # conv weight [C, 1, K, 1] flattened

ho = H - (K - 1) * DIL
golden = np.zeros((N, C, ho, W), dtype=np.float64)
for k in range(K):
    golden += weight[None, :, k, None, None].astype(np.float64) * x[:, :, k * DIL:k * DIL + ho, :]

os.makedirs('input', exist_ok=True)
os.makedirs('output', exist_ok=True)
x.tofile('input/x.bin')
weight.tofile('input/weight.bin')
golden.astype(np.float32).tofile('output/golden.bin')
