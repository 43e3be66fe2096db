#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_leaky_relu_multiply_leaky_relu_max_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, const at::Tensor& multiplier,
    int64_t stride, int64_t padding, int64_t outputPadding, double negativeSlope)
{
    // transposed convolution via the built-in operator
    at::Tensor conv = at::conv_transpose3d(x, weight, bias,
                                           {stride, stride, stride},
                                           {padding, padding, padding},
                                           {outputPadding, outputPadding, outputPadding}).contiguous();
    at::Tensor mult = multiplier.reshape({-1}).contiguous();
    at::Tensor y = at::empty({conv.size(0), conv.size(1), conv.size(2) / 2, conv.size(3) / 2, conv.size(4) / 2},
                             conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom, conv, mult, negativeSlope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom",
           &conv_transpose3d_leaky_relu_multiply_leaky_relu_max_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom",
          &conv_transpose3d_leaky_relu_multiply_leaky_relu_max_impl_npu,
          "conv_transpose3d + leaky_relu + multiply + leaky_relu + max_pool3d");
}
