import os
import numpy as np

B, T, C, NH = 2, 128, 256, 4
HS = C // NH


def softmax(a):
    a = a - a.max(axis=-1, keepdims=True)
    e = np.exp(a)
    return e / e.sum(axis=-1, keepdims=True)


def reference(x, w_attn, b_attn, w_proj, b_proj):
    qkv = x @ w_attn.T + b_attn                       # (B, T, 3C)
    q, k, v = np.split(qkv, 3, axis=2)
    heads = lambda t: t.reshape(B, T, NH, HS).transpose(0, 2, 1, 3)
    q, k, v = heads(q), heads(k), heads(v)
    att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(HS)
    causal = np.tril(np.ones((T, T), dtype=bool))
    att = np.where(causal, att, -np.inf)
    y = softmax(att) @ v                              # (B, NH, T, HS)
    y = y.transpose(0, 2, 1, 3).reshape(B, T, C)
    return y @ w_proj.T + b_proj


if __name__ == '__main__':
    rng = np.random.default_rng(2024)
    lim = 1.0 / np.sqrt(C)
    x = rng.random((B, T, C)).astype(np.float32)
    w_attn = rng.uniform(-lim, lim, (3 * C, C)).astype(np.float32)   # nn.Linear layout (out, in)
    b_attn = rng.uniform(-lim, lim, 3 * C).astype(np.float32)
    w_proj = rng.uniform(-lim, lim, (C, C)).astype(np.float32)
    b_proj = rng.uniform(-lim, lim, C).astype(np.float32)

    golden = reference(x.astype(np.float64), w_attn.astype(np.float64), b_attn.astype(np.float64),
                       w_proj.astype(np.float64), b_proj.astype(np.float64)).astype(np.float32)

    os.makedirs('input', exist_ok=True)
    os.makedirs('output', exist_ok=True)
    x.tofile('input/x.bin')
    # the kernel consumes weights as [in, out]
    np.ascontiguousarray(w_attn.T).tofile('input/w_attn_t.bin')
    b_attn.tofile('input/b_attn.bin')
    np.ascontiguousarray(w_proj.T).tofile('input/w_proj_t.bin')
    b_proj.tofile('input/b_proj.bin')
    golden.tofile('output/golden.bin')
