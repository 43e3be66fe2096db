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
    return [torch.randn(_shape(case["shape"]), generator=_gen(case))]
