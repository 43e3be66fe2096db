#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d (cube, no bias) followed by the fused bias/clamp/divide kernel.
at::Tensor conv_transpose3d_clamp_min_divide_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                             const at::Tensor& bias, int64_t stride,
                                                             int64_t padding, double min_value, double divisor)
{
    TORCH_CHECK(x.dim() == 5, "x must be NCDHW");
    TORCH_CHECK(divisor != 0.0, "divisor must be non-zero");
    at::Tensor conv = at::conv_transpose3d(x, weight, c10::nullopt,
                                           {stride, stride, stride}, {padding, padding, padding}).contiguous();
    at::Tensor b = bias.contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvTranspose3dClampMinDivideCustom, conv, b, min_value, divisor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_clamp_min_divide_custom", &conv_transpose3d_clamp_min_divide_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_clamp_min_divide_custom", &conv_transpose3d_clamp_min_divide_custom_impl_npu,
          "conv_transpose3d + clamp(min) + divide");
}
