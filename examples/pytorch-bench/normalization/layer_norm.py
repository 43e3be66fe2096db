"""Layer normalisation over the hidden axis, with learnable scale and shift."""

import torch

BATCH = 32
SEQ = 512
HIDDEN = 1024


class Model(torch.nn.Module):
    """LayerNorm(hidden) with eps = 1e-5."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.norm = torch.nn.LayerNorm(hidden, eps=1e-5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)


def get_inputs() -> list[torch.Tensor]:
    return [torch.randn(BATCH, SEQ, HIDDEN)]


def get_init_inputs() -> list:
    return [HIDDEN]
