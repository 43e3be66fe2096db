"""Top-k values and indices along the last axis (largest first, sorted)."""

import torch

ROWS = 4096
COLS = 32000
K = 50


class Model(torch.nn.Module):
    """Returns the k largest values of each row and their indices."""

    def __init__(self, k: int) -> None:
        super().__init__()
        self.k = k

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        values, indices = torch.topk(x, self.k, dim=-1, largest=True, sorted=True)
        return values, indices


def get_inputs() -> list[torch.Tensor]:
    return [torch.randn(ROWS, COLS)]


def get_init_inputs() -> list:
    return [K]
