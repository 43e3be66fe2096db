#!/usr/bin/env python3
"""Image, jittered identity grid and bilinear-sampled golden output."""
import os
import numpy as np

N, C, H, W = 4, 3, 256, 256


def identity_grid(n, h, w):
    # pixel-centre normalized coordinates, x varies along the last axis
    xs = (2.0 * np.arange(w) + 1.0) / w - 1.0
    ys = (2.0 * np.arange(h) + 1.0) / h - 1.0
    gx, gy = np.meshgrid(xs, ys)
    g = np.stack([gx, gy], axis=-1)
    return np.broadcast_to(g, (n, h, w, 2)).astype(np.float32)


def bilinear(img, grid):
    n, c, h, w = img.shape
    ix = ((grid[..., 0] + 1.0) * w - 1.0) / 2.0
    iy = ((grid[..., 1] + 1.0) * h - 1.0) / 2.0
    x0 = np.floor(ix).astype(np.int64)
    y0 = np.floor(iy).astype(np.int64)
    ax = ix - x0
    ay = iy - y0
    out = np.zeros((n, c, grid.shape[1], grid.shape[2]), dtype=np.float64)
    bidx = np.arange(n)[:, None, None]
    for dy, dx, wt in ((0, 0, (1 - ax) * (1 - ay)), (0, 1, ax * (1 - ay)),
                       (1, 0, (1 - ax) * ay), (1, 1, ax * ay)):
        yy = y0 + dy
        xx = x0 + dx
        ok = (xx >= 0) & (xx < w) & (yy >= 0) & (yy < h)
        v = img[bidx, :, np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]  # n,ho,wo,c
        v = np.moveaxis(v, -1, 1)
        out += v * (wt * ok)[:, None]
    return out.astype(np.float32)


def main():
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    img = np.random.rand(N, C, H, W).astype(np.float32)
    grid = identity_grid(N, H, W) + 0.05 * np.random.rand(N, H, W, 2).astype(np.float32)
    grid = grid.astype(np.float32)
    img.tofile("input/image.bin")
    grid.tofile("input/grid.bin")
    bilinear(img, grid).tofile("output/golden.bin")


if __name__ == "__main__":
    main()
