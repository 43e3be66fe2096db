#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_group_norm_leaky_relu_sum_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                     const at::Tensor& bias, const at::Tensor& gamma,
                                                     const at::Tensor& beta, int64_t num_groups,
                                                     double eps, double negative_slope)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "x and weight must be 2-D");
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnMatmulGroupNormLeakyReluSumCustom, x, weight, bias, gamma, beta,
                 num_groups, eps, negative_slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_group_norm_leaky_relu_sum_custom", &matmul_group_norm_leaky_relu_sum_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_group_norm_leaky_relu_sum_custom", &matmul_group_norm_leaky_relu_sum_impl_npu,
          "linear -> group norm -> leaky relu -> x + x");
}
