// pybind binding for MatmulWithDiagonalMatricesCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_with_diagonal_matrices_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty_like(bc);
    EXEC_NPU_CMD(aclnnMatmulWithDiagonalMatricesCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_diagonal_matrices_custom", &matmul_with_diagonal_matrices_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_diagonal_matrices_custom", &matmul_with_diagonal_matrices_custom_impl_npu, "diag(a) @ b");
}
