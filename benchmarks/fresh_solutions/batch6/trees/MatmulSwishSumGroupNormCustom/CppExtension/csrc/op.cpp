#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_swish_sum_group_norm_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& linear_bias, const at::Tensor& bias,
    const at::Tensor& gamma, const at::Tensor& beta, int64_t num_groups, double eps)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected 2-D x and weight");
    TORCH_CHECK(weight.size(0) % num_groups == 0, "out_features must be divisible by num_groups");
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor lbc = linear_bias.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor gc = gamma.contiguous();
    at::Tensor btc = beta.contiguous();
    float epsValue = static_cast<float>(eps);
    EXEC_NPU_CMD(aclnnMatmulSwishSumGroupNormCustom, xc, wc, lbc, bc, gc, btc, num_groups, epsValue, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_swish_sum_group_norm_custom", &matmul_swish_sum_group_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_swish_sum_group_norm_custom", &matmul_swish_sum_group_norm_custom_impl_npu,
          "matmul + swish + bias add + group norm");
}
