# Copyright 2026 Example Benchmark authors.
# SPDX-License-Identifier: Apache-2.0
#
# Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 . Distributed on an "AS IS" BASIS, without
# warranties or conditions of any kind. See the LICENSE file at the root of this benchmark.

import torch


def _shape(text: str) -> list[int]:
    return [int(d) for d in text.split("x")]


def _gen(case: dict) -> torch.Generator:
    return torch.Generator().manual_seed(int(case["seed"]))


def prepare_inputs(case: dict) -> list[torch.Tensor]:
    g = _gen(case)
    rows, cols = _shape(case["shape"])
    density = float(case["density"])
    dense = torch.randn(rows, cols, generator=g)
    dense[torch.rand(rows, cols, generator=g) > density] = 0.0
    csr = dense.to_sparse_csr()
    x = torch.randn(cols, generator=g)
    return [csr.crow_indices().int(), csr.col_indices().int(), csr.values(), x]
