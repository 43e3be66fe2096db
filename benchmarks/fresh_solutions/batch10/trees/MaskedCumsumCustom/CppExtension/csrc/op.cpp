#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor masked_cumsum_custom_impl_npu(const at::Tensor& x, const at::Tensor& mask, int64_t dim)
{
    TORCH_CHECK(x.sizes() == mask.sizes(), "x and mask must have the same shape");
    int64_t d = dim < 0 ? dim + x.dim() : dim;
    // the kernel scans the innermost axis; move `dim` there if needed
    bool moved = d != x.dim() - 1;
    at::Tensor xs = moved ? x.movedim(d, -1).contiguous() : x.contiguous();
    at::Tensor ms = moved ? mask.movedim(d, -1).contiguous() : mask.contiguous();
    if (ms.scalar_type() != at::kBool) {
        ms = ms.to(at::kBool);
    }
    at::Tensor y = at::empty_like(xs);
    int64_t lastDim = xs.dim() - 1;
    EXEC_NPU_CMD(aclnnMaskedCumsumCustom, xs, ms, lastDim, y);
    return moved ? y.movedim(-1, d).contiguous() : y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("masked_cumsum_custom", &masked_cumsum_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("masked_cumsum_custom", &masked_cumsum_custom_impl_npu, "cumsum(x * mask, dim)");
}
