import os
import numpy as np


def gen_golden_data_simple():
    a = np.random.uniform(0, 1, [16, 1, 1024]).astype(np.float32)
    b = np.random.uniform(0, 1, [1, 256, 1]).astype(np.float32)
    golden = np.maximum(a, b)          # broadcasts to [16, 256, 1024]

    os.makedirs("./input", exist_ok=True)
    os.makedirs("./output", exist_ok=True)
    a.tofile("./input/input_a.bin")
    b.tofile("./input/input_b.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data_simple()
