#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = linear(x, weight, bias) * scaling_factor + linear(x, weight, bias)
at::Tensor matmul_scaling_residual_add_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                       const at::Tensor& bias, double scaling_factor)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "x and weight must be 2-D");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    float factor = static_cast<float>(scaling_factor);
    EXEC_NPU_CMD(aclnnMatmulScalingResidualAddCustom, xc, wc, bc, factor, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_scaling_residual_add_custom", &matmul_scaling_residual_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_scaling_residual_add_custom", &matmul_scaling_residual_add_custom_impl_npu,
          "matmul + scaling + residual add");
}
