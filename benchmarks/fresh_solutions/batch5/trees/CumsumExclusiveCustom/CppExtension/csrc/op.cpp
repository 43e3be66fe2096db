#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor cumsum_exclusive_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnCumsumExclusiveCustom, x, dim, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cumsum_exclusive_custom", &cumsum_exclusive_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cumsum_exclusive_custom", &cumsum_exclusive_custom_impl_npu, "exclusive cumsum");
}
