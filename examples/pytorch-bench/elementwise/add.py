"""Element-wise addition of two float32 vectors of the same shape."""

import torch

LENGTH = 1 << 20


class Model(torch.nn.Module):
    """z = x + y."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x + y


def get_inputs() -> list[torch.Tensor]:
    return [torch.randn(LENGTH), torch.randn(LENGTH)]


def get_init_inputs() -> list:
    return []
