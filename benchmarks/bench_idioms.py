"""What recognising hand-written ops (`dedup.idioms`) costs on hostile rows: each row is about
100 KB of one shape an idiom's pattern could scan without bound (a single long word, a call
repeated without the `;` its pattern looks for, ...). Prints milliseconds per row. Not a test.

    python benchmarks/bench_idioms.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dedup.idioms import handwritten_ops

N = 100_000
ROWS = {
    "one long word": "a" * N + " ? 0.0f : exp( max Maxs Mins Sigmoid igmoid anchor h0 grid Abs ool um",
    "pool repeated in a word": "pool" * (N // 4) + " ool",
    "inv repeated in a word": "inv" * (N // 3) + " pool ool",
    "Sum repeated in a word": "Sum" * (N // 3) + " * inv um",
    "spaces in a branch": "if (" + " " * N + "? 0.0f",
    "conditionals": "x > 0.0f ? " * (N // 11),
    "Maxs without a scalar": "Maxs(a, b, " * (N // 11),
    "Maxs without a ;": "Maxs(" * (N // 5) + " -1.0f ;",
    "Sigmoid without a ;": "Sigmoid(a, b " * (N // 13),
    "fminf(fmaxf( then a word": "fminf(fmaxf(" * (N // 12) + "x" * N,
    "Abs then ReduceSum": "Abs(" * (N // 8) + "ReduceSum " * (N // 20),
    "sigmoid openings": "1.0f / (1.0f + exp(" * (N // 20),
    "softplus openings": "log(1 + exp" * (N // 11),
    "zero-clamp openings": "if (v < 0.0f) { " * (N // 16),
}


def main() -> None:
    for name, row in ROWS.items():
        times = []
        for _ in range(3):
            start = time.perf_counter()
            handwritten_ops(row)
            times.append(time.perf_counter() - start)
        print(f"{name:28} {len(row) / 1000:6.0f} KB  median {sorted(times)[1] * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
