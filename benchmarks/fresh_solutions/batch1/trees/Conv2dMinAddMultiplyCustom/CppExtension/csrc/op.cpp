#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d runs on the cube through the stock NPU convolution, then the
// min / bias add / scale epilogue is done by the custom kernel in one pass.
at::Tensor conv2d_min_add_multiply_custom_impl_npu(const at::Tensor& x, const at::Tensor& conv_weight,
                                                   const at::Tensor& conv_bias, const at::Tensor& bias,
                                                   double constant_value, double scaling_factor)
{
    at::Tensor conv = at::conv2d(x, conv_weight, conv_bias).contiguous();
    at::Tensor biasFlat = bias.reshape({-1}).contiguous();
    TORCH_CHECK(biasFlat.numel() == conv.size(1), "bias must have one value per output channel");
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConv2dMinAddMultiplyCustom, conv, biasFlat, constant_value, scaling_factor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_min_add_multiply_custom", &conv2d_min_add_multiply_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_min_add_multiply_custom", &conv2d_min_add_multiply_custom_impl_npu,
          "conv2d followed by min(constant), +bias, *scale");
}
