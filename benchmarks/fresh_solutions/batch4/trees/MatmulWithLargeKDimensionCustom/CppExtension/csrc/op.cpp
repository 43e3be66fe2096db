#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// C = A @ B with a very long reduction axis.
// The kernel splits K across cores and accumulates partial products into C
// with atomic add, so C has to start out as zeros.
at::Tensor matmul_with_large_k_dimension_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "expect 2-D inputs");
    TORCH_CHECK(a.size(1) == b.size(0), "inner dims mismatch");
    at::Tensor a_c = a.contiguous();
    at::Tensor b_c = b.contiguous();
    at::Tensor c = at::zeros({a.size(0), b.size(1)}, a.options());
    EXEC_NPU_CMD(aclnnMatmulWithLargeKDimensionCustom, a_c, b_c, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_large_k_dimension_custom", &matmul_with_large_k_dimension_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_large_k_dimension_custom", &matmul_with_large_k_dimension_impl_npu,
          "matmul with split-K accumulation");
}
