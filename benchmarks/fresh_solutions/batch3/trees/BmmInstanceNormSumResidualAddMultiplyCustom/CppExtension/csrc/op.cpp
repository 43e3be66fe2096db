#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor bmm_instance_norm_sum_residual_add_multiply_impl_npu(const at::Tensor& x, const at::Tensor& y,
                                                                const at::Tensor& weight, const at::Tensor& bias,
                                                                double eps)
{
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnBmmInstanceNormSumResidualAddMultiplyCustom, x, y, weight, bias, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bmm_instance_norm_sum_residual_add_multiply_custom", &bmm_instance_norm_sum_residual_add_multiply_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bmm_instance_norm_sum_residual_add_multiply_custom", &bmm_instance_norm_sum_residual_add_multiply_impl_npu,
          "(instance_norm(linear(x)) + y) * y");
}
