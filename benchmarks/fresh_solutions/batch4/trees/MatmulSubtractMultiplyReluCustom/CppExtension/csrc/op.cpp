// binding: linear + (y - s) * m + relu in one custom op
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_subtract_multiply_relu_custom_impl_npu(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b,
                                                         double sub, double mul)
{
    at::Tensor y = at::empty({x.size(0), w.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnMatmulSubtractMultiplyReluCustom, x, w, b, sub, mul, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_subtract_multiply_relu_custom", &matmul_subtract_multiply_relu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_subtract_multiply_relu_custom", &matmul_subtract_multiply_relu_custom_impl_npu, "relu((xW^T+b-s)*m)");
}
