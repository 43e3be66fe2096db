#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C = A @ B.T  with A: (M, K), B: (N, K)
at::Tensor matmul_with_transposed_b_custom_impl_npu(const at::Tensor &a, const at::Tensor &b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "matmul_with_transposed_b_custom expects 2-D inputs");
    TORCH_CHECK(a.size(1) == b.size(1), "inner dimensions of A and B must match");
    at::Tensor aC = a.contiguous();
    at::Tensor bC = b.contiguous();
    at::Tensor result = at::empty({a.size(0), b.size(0)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulWithTransposedBCustom, aC, bC, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_transposed_b_custom", &matmul_with_transposed_b_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_transposed_b_custom", &matmul_with_transposed_b_custom_impl_npu, "A @ B^T");
}
