"""Concatenation of two matrices along the last axis."""

import torch

ROWS = 4096
COLS_1 = 300
COLS_2 = 77


class Model(torch.nn.Module):
    """y = cat([x1, x2], dim=-1)."""

    def forward(self, x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
        return torch.cat([x1, x2], dim=-1)


def get_inputs() -> list[torch.Tensor]:
    return [
        torch.randn(ROWS, COLS_1, dtype=torch.float16),
        torch.randn(ROWS, COLS_2, dtype=torch.float16),
    ]


def get_init_inputs() -> list:
    return []
