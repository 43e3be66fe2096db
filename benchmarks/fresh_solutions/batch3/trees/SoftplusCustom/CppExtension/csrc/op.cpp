#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor softplus_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor y = at::empty_like(x);
    EXEC_NPU_CMD(aclnnSoftplusCustom, x, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("softplus_custom", &softplus_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("softplus_custom", &softplus_custom_impl_npu, "softplus(x)");
}
