#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// torch.cumsum(x, dim)
at::Tensor cumsum_custom_impl_npu(const at::Tensor &x, int64_t dim)
{
    int64_t d = dim < 0 ? dim + x.dim() : dim;
    TORCH_CHECK(d >= 0 && d < x.dim(), "dim out of range");
    at::Tensor xC = x.contiguous();
    at::Tensor y = at::empty_like(xC);
    EXEC_NPU_CMD(aclnnCumsumCustom, xC, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("cumsum_custom", &cumsum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("cumsum_custom", &cumsum_custom_impl_npu, "cumulative sum along dim");
}
