#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C = tril(A @ B) for lower-triangular A, B.
// The kernel only computes blocks on or below the diagonal, and for block (bi, bj)
// only the K range [bj*bs, (bi+1)*bs) (everything else multiplies zeros).
// Blocks above the diagonal are never touched, so the output starts zeroed.
at::Tensor matmul_for_lower_triangular_matrices_impl_npu(const at::Tensor& A, const at::Tensor& B)
{
    TORCH_CHECK(A.dim() == 2 && B.dim() == 2, "expected 2-D matrices");
    TORCH_CHECK(A.size(0) == A.size(1) && A.sizes() == B.sizes(), "expected square matrices of equal size");
    at::Tensor a = A.contiguous();
    at::Tensor b = B.contiguous();
    at::Tensor c = at::zeros_like(a);
    EXEC_NPU_CMD(aclnnMatmulForLowerTriangularMatricesCustom, a, b, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_for_lower_triangular_matrices_custom", &matmul_for_lower_triangular_matrices_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_for_lower_triangular_matrices_custom", &matmul_for_lower_triangular_matrices_impl_npu,
          "tril(A @ B) for lower-triangular A, B");
}
