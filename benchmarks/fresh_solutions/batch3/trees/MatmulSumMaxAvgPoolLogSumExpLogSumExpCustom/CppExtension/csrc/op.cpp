#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_sum_max_avg_pool_lse_lse_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                    const at::Tensor& bias)
{
    at::Tensor y = at::empty({x.size(0), 1}, x.options());
    EXEC_NPU_CMD(aclnnMatmulSumMaxAvgPoolLogSumExpLogSumExpCustom, x, weight, bias, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_sum_max_avg_pool_log_sum_exp_log_sum_exp_custom", &matmul_sum_max_avg_pool_lse_lse_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_sum_max_avg_pool_log_sum_exp_log_sum_exp_custom", &matmul_sum_max_avg_pool_lse_lse_impl_npu,
          "linear -> sum -> max -> mean -> logsumexp -> logsumexp");
}
