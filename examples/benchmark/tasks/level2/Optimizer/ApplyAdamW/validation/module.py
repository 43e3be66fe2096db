# Copyright 2026 Example Benchmark authors.
# SPDX-License-Identifier: Apache-2.0
#
# Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
# http://www.apache.org/licenses/LICENSE-2.0 . Distributed on an "AS IS" BASIS, without
# warranties or conditions of any kind. See the LICENSE file at the root of this benchmark.

import torch


class Model(torch.nn.Module):
    def __init__(
        self, lr=1e-3, beta1=0.9, beta2=0.999, epsilon=1e-8, weight_decay=0.01, step=1, maximize=False
    ):
        super().__init__()
        self.lr, self.b1, self.b2, self.eps = lr, beta1, beta2, epsilon
        self.wd, self.step, self.maximize = weight_decay, step, maximize

    def forward(self, var, m, v, grad):
        g = -grad if self.maximize else grad
        var = var * (1 - self.lr * self.wd)
        m = self.b1 * m + (1 - self.b1) * g
        v = self.b2 * v + (1 - self.b2) * g * g
        denom = (v / (1 - self.b2**self.step)).sqrt() + self.eps
        var = var - self.lr / (1 - self.b1**self.step) * m / denom
        return var, m, v
