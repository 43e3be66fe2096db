#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor cumprod_custom_impl_npu(const at::Tensor& x, int64_t dim)
{
    at::Tensor xc = x.contiguous();
    int64_t nd = xc.dim();
    int64_t d = dim < 0 ? dim + nd : dim;
    TORCH_CHECK(d >= 0 && d < nd, "cumprod_custom: dim out of range");
    at::Tensor out = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnCumprodCustom, xc, d, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cumprod_custom", &cumprod_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cumprod_custom", &cumprod_custom_impl_npu, "torch.cumprod(x, dim)");
}
