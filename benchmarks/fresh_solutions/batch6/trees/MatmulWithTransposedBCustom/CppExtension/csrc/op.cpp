// pybind binding for MatmulWithTransposedBCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor matmul_with_transposed_b_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    at::Tensor ac = a.contiguous();
    at::Tensor bc = b.contiguous();
    at::Tensor c = at::empty({ac.size(0), bc.size(0)}, ac.options());
    EXEC_NPU_CMD(aclnnMatmulWithTransposedBCustom, ac, bc, c);
    return c;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_with_transposed_b_custom", &matmul_with_transposed_b_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_with_transposed_b_custom", &matmul_with_transposed_b_custom_impl_npu, "a @ b.T");
}
