#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_sum_residual_add_multiply_residual_add_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& conv_bias, const at::Tensor& bias,
    int64_t stride, int64_t padding, int64_t output_padding)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expect NCDHW input, (Cin, Cout, k, k, k) weight");
    int64_t k = weight.size(2);
    std::vector<int64_t> shape = {x.size(0), weight.size(1)};
    for (int i = 2; i < 5; ++i) {
        shape.push_back((x.size(i) - 1) * stride - 2 * padding + k + output_padding);
    }
    at::Tensor y = at::empty(shape, x.options());
    // bias is (Cout, 1, 1, 1); kernel reads it as a flat Cout vector
    at::Tensor bias_flat = bias.reshape({-1}).contiguous();
    EXEC_NPU_CMD(aclnnConvTranspose3dSumResidualAddMultiplyResidualAddCustom, x, weight, conv_bias, bias_flat,
                 stride, padding, output_padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_sum_residual_add_multiply_residual_add_custom",
           &conv_transpose3d_sum_residual_add_multiply_residual_add_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_sum_residual_add_multiply_residual_add_custom",
          &conv_transpose3d_sum_residual_add_multiply_residual_add_impl_npu,
          "conv_transpose3d -> +bias +o *o +o");
}
