"""GELU with the tanh approximation on a large half-precision activation tensor."""

import torch

BATCH = 16
HIDDEN = 16384


class Model(torch.nn.Module):
    """Applies GELU (approximate="tanh") element-wise."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(x, approximate="tanh")


def get_inputs() -> list[torch.Tensor]:
    return [torch.randn(BATCH, HIDDEN, dtype=torch.float16)]


def get_init_inputs() -> list:
    return []
