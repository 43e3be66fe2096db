#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor add_bias_four_dim_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 4, "x must be 4-D (N, C, H, W)");
    TORCH_CHECK(bias.numel() == x.size(1), "bias length must equal the channel count");
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.reshape({-1}).contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnAddBiasFourDimBroadcastCustom, xc, bc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("add_bias_four_dim_broadcast_custom", &add_bias_four_dim_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("add_bias_four_dim_broadcast_custom", &add_bias_four_dim_broadcast_custom_impl_npu,
          "x + bias.view(1, -1, 1, 1)");
}
