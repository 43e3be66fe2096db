# Copyright 2026 Example Benchmark authors.
# SPDX-License-Identifier: Apache-2.0
#
# Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 . Distributed on an "AS IS" BASIS, without
# warranties or conditions of any kind. See the LICENSE file at the root of this benchmark.

import torch


class Model(torch.nn.Module):
    def __init__(self, kernel_size=(2, 2), stride=(2, 2)):
        super().__init__()
        self.kernel_size, self.stride = tuple(kernel_size), tuple(stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.max_pool2d(x, self.kernel_size, self.stride)
