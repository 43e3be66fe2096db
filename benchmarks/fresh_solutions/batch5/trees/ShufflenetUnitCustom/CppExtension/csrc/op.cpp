#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

namespace {
constexpr double BN_MOMENTUM = 0.1;
constexpr double BN_EPS = 1e-5;

// Training-mode batch norm (the reference module is used in train mode).
at::Tensor Bn(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b, const at::Tensor &rm,
              const at::Tensor &rv)
{
    return at::batch_norm(x, w, b, rm, rv, true, BN_MOMENTUM, BN_EPS, false);
}

at::Tensor ChannelShuffle(const at::Tensor &x, int64_t groups)
{
    at::Tensor in = x.contiguous();
    at::Tensor out = at::empty_like(in);
    EXEC_NPU_CMD(aclnnShufflenetUnitCustom, in, groups, out);
    return out;
}
} // namespace

// ShuffleNet unit. Convolutions and batch norms go through ATen; the channel
// shuffle (view/transpose/contiguous in the reference) is the custom kernel.
// shortcutConv is empty when in_channels == out_channels (identity shortcut).
at::Tensor shufflenet_unit_custom_impl_npu(
    const at::Tensor &x, int64_t groups,
    const at::Tensor &conv1W, const at::Tensor &bn1W, const at::Tensor &bn1B, const at::Tensor &bn1M,
    const at::Tensor &bn1V,
    const at::Tensor &conv2W, const at::Tensor &bn2W, const at::Tensor &bn2B, const at::Tensor &bn2M,
    const at::Tensor &bn2V,
    const at::Tensor &conv3W, const at::Tensor &bn3W, const at::Tensor &bn3B, const at::Tensor &bn3M,
    const at::Tensor &bn3V,
    const at::Tensor &scW, const at::Tensor &scBnW, const at::Tensor &scBnB, const at::Tensor &scBnM,
    const at::Tensor &scBnV)
{
    const int64_t mid = conv2W.size(0);

    at::Tensor out = at::conv2d(x, conv1W, {}, 1, 0, 1, groups);
    out = at::relu(Bn(out, bn1W, bn1B, bn1M, bn1V));

    out = at::conv2d(out, conv2W, {}, 1, 1, 1, mid);  // depthwise 3x3
    out = Bn(out, bn2W, bn2B, bn2M, bn2V);

    out = ChannelShuffle(out, groups);

    out = at::conv2d(out, conv3W, {}, 1, 0, 1, groups);
    out = at::relu(Bn(out, bn3W, bn3B, bn3M, bn3V));

    at::Tensor shortcut;
    if (scW.defined() && scW.numel() > 0) {
        shortcut = Bn(at::conv2d(x, scW), scBnW, scBnB, scBnM, scBnV);
    } else {
        shortcut = x;
    }
    return out + shortcut;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("shufflenet_unit_custom", &shufflenet_unit_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("shufflenet_unit_custom", &shufflenet_unit_custom_impl_npu,
          "ShuffleNet unit with a custom channel-shuffle kernel");
}
