#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor three_dim_tensor_matrix_multiplication_custom_impl_npu(const at::Tensor& A, const at::Tensor& B)
{
    TORCH_CHECK(A.dim() == 3 && B.dim() == 2, "expected A: [N, M, K] and B: [K, L]");
    TORCH_CHECK(A.size(2) == B.size(0), "inner dimensions must match");
    at::Tensor a = A.contiguous();
    at::Tensor b = B.contiguous();
    at::Tensor c = at::empty({a.size(0), a.size(1), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnThreeDimTensorMatrixMultiplicationCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("three_dim_tensor_matrix_multiplication_custom", &three_dim_tensor_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("three_dim_tensor_matrix_multiplication_custom", &three_dim_tensor_matrix_multiplication_custom_impl_npu,
          "3D tensor x matrix multiplication");
}
