#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// torch.index_select(x, dim, index). The kernel gathers along the last axis of a
// contiguous tensor, so `dim` is moved last (a no-op for the 2-D, dim=1 case).
at::Tensor column_gather_impl_npu(const at::Tensor &x, int64_t dim, const at::Tensor &index)
{
    int64_t nd = x.dim();
    if (dim < 0) {
        dim += nd;
    }
    TORCH_CHECK(dim >= 0 && dim < nd, "column_gather: dim out of range");
    TORCH_CHECK(index.dim() <= 1, "column_gather: index must be 0-D or 1-D");
    bool moved = dim != nd - 1;
    at::Tensor src = moved ? x.movedim(dim, nd - 1).contiguous() : x.contiguous();
    at::Tensor idx = index.reshape({-1}).to(at::kInt).contiguous();

    auto outSize = src.sizes().vec();
    outSize.back() = idx.numel();
    at::Tensor out = at::empty(outSize, src.options());
    EXEC_NPU_CMD(aclnnColumnGatherCustom, src, idx, out);
    return moved ? out.movedim(nd - 1, dim).contiguous() : out;
}

at::Tensor column_gather_dim1(const at::Tensor &x, const at::Tensor &index)
{
    return column_gather_impl_npu(x, 1, index);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("column_gather_custom", &column_gather_dim1);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("column_gather_custom", &column_gather_dim1, "index_select(x, 1, index)");
    m.def("column_gather_dim", &column_gather_impl_npu, "index_select(x, dim, index)");
}
