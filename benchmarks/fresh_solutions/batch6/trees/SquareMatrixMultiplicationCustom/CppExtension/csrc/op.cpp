#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor square_matrix_multiplication_custom_impl_npu(const at::Tensor &a, const at::Tensor &b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expected 2-D matrices");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dimensions must match");
    at::Tensor c = at::empty({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnSquareMatrixMultiplicationCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("square_matrix_multiplication_custom", &square_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("square_matrix_multiplication_custom", &square_matrix_multiplication_custom_impl_npu,
          "C = A @ B for square matrices");
}
