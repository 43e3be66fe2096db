"""Row softmax over the last axis of attention-score-shaped input."""

import torch

ROWS = 8192
COLS = 64


class Model(torch.nn.Module):
    """Softmax along the last dimension."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


def get_inputs() -> list[torch.Tensor]:
    return [torch.randn(ROWS, COLS, dtype=torch.float16)]


def get_init_inputs() -> list:
    return []
