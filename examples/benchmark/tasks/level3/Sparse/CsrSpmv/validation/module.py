# Copyright 2026 Example Benchmark authors.
# SPDX-License-Identifier: Apache-2.0
#
# Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 . Distributed on an "AS IS" BASIS, without
# warranties or conditions of any kind. See the LICENSE file at the root of this benchmark.

import torch


class Model(torch.nn.Module):
    def forward(self, row_ptr, col_idx, values, x):
        n_rows = row_ptr.numel() - 1
        a = torch.sparse_csr_tensor(row_ptr.long(), col_idx.long(), values, size=(n_rows, x.numel()))
        return (a @ x.unsqueeze(1)).squeeze(1)
