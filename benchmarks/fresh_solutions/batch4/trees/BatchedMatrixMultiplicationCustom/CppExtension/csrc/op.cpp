// binding: torch.bmm through the custom op
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor batched_matrix_multiplication_custom_impl_npu(const at::Tensor &a, const at::Tensor &b)
{
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3 && a.size(0) == b.size(0) && a.size(2) == b.size(1), "bad bmm shapes");
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({a.size(0), a.size(1), b.size(2)}, a.options());
    EXEC_NPU_CMD(aclnnBatchedMatrixMultiplicationCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("batched_matrix_multiplication_custom", &batched_matrix_multiplication_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("batched_matrix_multiplication_custom", &batched_matrix_multiplication_custom_impl_npu, "bmm");
}
