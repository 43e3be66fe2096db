// pybind binding for GemmSigmoidSumLogSumExpCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor gemm_sigmoid_sum_log_sum_exp_custom_impl_npu(const at::Tensor& x, const at::Tensor& w1,
    const at::Tensor& b1, const at::Tensor& w2, const at::Tensor& b2)
{
    at::Tensor xc = x.contiguous();
    at::Tensor w1c = w1.contiguous();
    at::Tensor w2c = w2.contiguous();
    at::Tensor y = at::empty({x.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnGemmSigmoidSumLogSumExpCustom, xc, w1c, b1, w2c, b2, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_sigmoid_sum_log_sum_exp_custom", &gemm_sigmoid_sum_log_sum_exp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_sigmoid_sum_log_sum_exp_custom", &gemm_sigmoid_sum_log_sum_exp_custom_impl_npu,
          "linear -> sigmoid -> linear -> logsumexp");
}
