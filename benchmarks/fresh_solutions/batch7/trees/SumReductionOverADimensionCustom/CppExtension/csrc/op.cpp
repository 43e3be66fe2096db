#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// torch.sum(x, dim=dim, keepdim=True)
at::Tensor axis_sum_keepdim_impl_npu(const at::Tensor &x, int64_t dim)
{
    at::Tensor xc = x.contiguous();
    int64_t d = at::maybe_wrap_dim(dim, xc.dim());
    auto outShape = xc.sizes().vec();
    outShape[d] = 1;
    at::Tensor y = at::empty(outShape, xc.options());
    EXEC_NPU_CMD(aclnnAxisSumKeepdimCustom, xc, d, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("axis_sum_keepdim_custom", &axis_sum_keepdim_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("axis_sum_keepdim_custom", &axis_sum_keepdim_impl_npu, "sum over one axis, keepdim (NPU)");
}
