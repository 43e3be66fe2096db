#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_relu_hard_swish_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                  const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "conv2d expects 4-D input and weight");
    int64_t oh = x.size(2) - weight.size(2) + 1;
    int64_t ow = x.size(3) - weight.size(3) + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnConv2dReluHardSwishCustom, xc, wc, bc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_relu_hard_swish_custom", &conv2d_relu_hard_swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_relu_hard_swish_custom", &conv2d_relu_hard_swish_custom_impl_npu,
          "conv2d + relu + hardswish (fused)");
}
