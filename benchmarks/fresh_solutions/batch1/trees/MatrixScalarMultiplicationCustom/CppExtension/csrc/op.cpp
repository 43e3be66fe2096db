#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matrix_scalar_multiplication_custom_impl_npu(const at::Tensor& a, double s)
{
    at::Tensor input = a.contiguous();
    at::Tensor result = at::empty_like(input);
    EXEC_NPU_CMD(aclnnMatrixScalarMultiplicationCustom, input, s, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matrix_scalar_multiplication_custom", &matrix_scalar_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matrix_scalar_multiplication_custom", &matrix_scalar_multiplication_custom_impl_npu, "C = A * s");
}
