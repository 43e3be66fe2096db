#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d runs through the stock NPU operator; swish + group norm + hardswish are fused
// into the custom kernel.
at::Tensor conv_transpose3d_swish_group_norm_hard_swish_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& conv_weight, const at::Tensor& conv_bias,
    int64_t stride, int64_t padding,
    const at::Tensor& gn_weight, const at::Tensor& gn_bias, int64_t groups, double eps)
{
    at::Tensor conv = at::conv_transpose3d(x, conv_weight, conv_bias,
                                           {stride, stride, stride}, {padding, padding, padding});
    conv = conv.contiguous();
    at::Tensor y = at::empty_like(conv);
    at::Tensor gamma = gn_weight.contiguous();
    at::Tensor beta = gn_bias.contiguous();
    float epsf = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnConvTranspose3dSwishGroupNormHardSwishCustom, conv, gamma, beta, groups, epsf, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_swish_group_norm_hard_swish_custom",
           &conv_transpose3d_swish_group_norm_hard_swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_swish_group_norm_hard_swish_custom",
          &conv_transpose3d_swish_group_norm_hard_swish_custom_impl_npu,
          "conv_transpose3d + swish + group_norm + hardswish");
}
