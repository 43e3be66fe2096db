import os
import numpy as np

B, LQ, LKV, D, H = 16, 64, 128, 512, 8
HD = D // H


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    rng = np.random.default_rng(1234)
    q = rng.random((B, LQ, D), dtype=np.float32)
    kv = rng.random((B, LKV, D), dtype=np.float32)
    bound = np.sqrt(6.0 / (2 * D))
    w = {n: rng.uniform(-bound, bound, (D, D)).astype(np.float32) for n in "qkvo"}
    b = {n: rng.uniform(-0.05, 0.05, D).astype(np.float32) for n in "qkvo"}

    q.tofile("input/q.bin")
    kv.tofile("input/kv.bin")
    for n in "qkvo":
        np.ascontiguousarray(w[n].T).tofile(f"input/w{n}_t.bin")   # kernel wants [in, out]
        b[n].tofile(f"input/b{n}.bin")

    def heads(t):
        return t.reshape(B, -1, H, HD).transpose(0, 2, 1, 3)

    qp = heads(q @ w["q"].T + b["q"])
    kp = heads(kv @ w["k"].T + b["k"])
    vp = heads(kv @ w["v"].T + b["v"])
    s = qp @ kp.transpose(0, 1, 3, 2) / np.sqrt(HD)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    p = s / s.sum(axis=-1, keepdims=True)
    ctx = (p @ vp).transpose(0, 2, 1, 3).reshape(B, LQ, D)
    out = ctx @ w["o"].T + b["o"]
    out.astype(np.float32).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
