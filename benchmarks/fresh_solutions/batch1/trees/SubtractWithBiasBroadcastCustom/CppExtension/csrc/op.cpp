#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor subtract_with_bias_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& bias)
{
    TORCH_CHECK(bias.dim() == 1 && bias.size(0) == x.size(-1), "bias must match the last dim of x");
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnSubtractWithBiasBroadcastCustom, xc, bc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("subtract_with_bias_broadcast_custom", &subtract_with_bias_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("subtract_with_bias_broadcast_custom", &subtract_with_bias_broadcast_custom_impl_npu,
          "x - bias (bias broadcast over rows)");
}
