#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x is the raw ConvTranspose3d input; the transposed conv itself runs through the NPU
// library (cube unit), the scale / 2x2x2 average pool / bias / scale tail is one custom kernel.
at::Tensor conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias,
    int64_t stride, int64_t padding, const at::Tensor& bias, double scale1, double scale2)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, conv_bias,
                                           {stride, stride, stride}, {padding, padding, padding});
    conv = conv.contiguous();
    at::Tensor biasFlat = bias.reshape({-1}).contiguous();
    auto in = conv.sizes();
    at::Tensor result = at::empty({in[0], in[1], in[2] / 2, in[3] / 2, in[4] / 2}, conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dScalingAvgPoolBiasAddScalingCustom, conv, biasFlat, scale1, scale2, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom",
           &conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom",
          &conv_transpose3d_scaling_avg_pool_bias_add_scaling_custom_impl_npu,
          "conv_transpose3d -> *scale1 -> avg_pool3d(2) -> +bias -> *scale2");
}
