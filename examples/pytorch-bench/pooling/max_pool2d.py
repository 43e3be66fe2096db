"""2-D max pooling with a 3x3 window, stride 2 and padding 1 on NCHW input."""

import torch

BATCH = 16
CHANNELS = 64
HEIGHT = 112
WIDTH = 112


class Model(torch.nn.Module):
    """MaxPool2d(kernel_size, stride, padding)."""

    def __init__(self, kernel_size: int, stride: int, padding: int) -> None:
        super().__init__()
        self.pool = torch.nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs() -> list[torch.Tensor]:
    return [torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)]


def get_init_inputs() -> list:
    return [3, 2, 1]
