#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d runs through the stock NPU operator; the memory-bound tail
// (scale -> AvgPool3d(2) -> +bias -> scale) is one custom kernel.
at::Tensor conv_transpose3d_scaling_avg_pool_bias_add_scaling_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& convBias,
    const at::Tensor& bias, double scale1, double scale2, int64_t stride, int64_t padding)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, convBias,
                                           {stride, stride, stride}, {padding, padding, padding}).contiguous();
    at::Tensor biasFlat = bias.reshape({-1}).contiguous();
    at::Tensor out = at::empty({conv.size(0), conv.size(1), conv.size(2) / 2, conv.size(3) / 2, conv.size(4) / 2},
                               conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dScalingAvgPoolBiasAddScalingCustom, conv, biasFlat, scale1, scale2, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom",
           &conv_transpose3d_scaling_avg_pool_bias_add_scaling_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom",
          &conv_transpose3d_scaling_avg_pool_bias_add_scaling_impl_npu,
          "conv_transpose3d -> *scale1 -> avg_pool3d(2) -> +bias -> *scale2");
}
