#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x.index_add(dim=0, index=indices, source=values)
at::Tensor index_add_custom_impl_npu(const at::Tensor &x, const at::Tensor &indices, const at::Tensor &values)
{
    TORCH_CHECK(indices.dim() == 1, "indices must be 1-D");
    TORCH_CHECK(values.size(0) == indices.size(0), "values.size(0) must equal indices.numel()");
    TORCH_CHECK(values[0].numel() == x[0].numel(), "row sizes of x and values differ");
    at::Tensor xC = x.contiguous();
    at::Tensor idx = indices.to(at::kLong).contiguous();
    at::Tensor vC = values.contiguous();
    at::Tensor result = at::empty_like(xC);
    EXEC_NPU_CMD(aclnnIndexAddCustom, xC, idx, vC, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_add_custom", &index_add_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_add_custom", &index_add_custom_impl_npu, "index_add along dim 0");
}
