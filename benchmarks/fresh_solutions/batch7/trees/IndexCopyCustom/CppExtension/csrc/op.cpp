#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// Row scatter along dim 0: out = self.clone(); out[index[j]] = source[j]
at::Tensor row_scatter_overwrite_impl_npu(const at::Tensor &self, const at::Tensor &index, const at::Tensor &source)
{
    TORCH_CHECK(index.dim() <= 1, "index must be a scalar or 1-D tensor");
    TORCH_CHECK(source.size(0) == index.numel(), "source rows must match index length");
    at::Tensor selfC = self.contiguous();
    at::Tensor idx = index.to(at::kLong).contiguous();
    at::Tensor srcC = source.contiguous();
    at::Tensor out = at::empty_like(selfC);
    EXEC_NPU_CMD(aclnnRowScatterOverwriteCustom, selfC, idx, srcC, out);
    return out;
}

// Tensor.index_copy(dim, index, source): the chosen dim is moved to the front
at::Tensor index_copy_impl_npu(const at::Tensor &self, int64_t dim, const at::Tensor &index, const at::Tensor &source)
{
    dim = at::maybe_wrap_dim(dim, self.dim());
    if (dim == 0) {
        return row_scatter_overwrite_impl_npu(self, index, source);
    }
    at::Tensor out = row_scatter_overwrite_impl_npu(self.movedim(dim, 0), index, source.movedim(dim, 0));
    return out.movedim(0, dim).contiguous();
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("row_scatter_overwrite_custom", &row_scatter_overwrite_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("row_scatter_overwrite_custom", &row_scatter_overwrite_impl_npu, "index_copy along dim 0 (NPU)");
    m.def("index_copy", &index_copy_impl_npu, "Tensor.index_copy (NPU)");
}
