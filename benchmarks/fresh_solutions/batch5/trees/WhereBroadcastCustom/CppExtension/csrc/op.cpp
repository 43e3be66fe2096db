#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor where_broadcast_custom_impl_npu(const at::Tensor &cond, const at::Tensor &x, const at::Tensor &y)
{
    TORCH_CHECK(x.sizes() == y.sizes(), "where_broadcast_custom: x and y must have the same shape");
    TORCH_CHECK(cond.scalar_type() == at::kBool, "where_broadcast_custom: cond must be bool");
    at::Tensor condC = cond.contiguous();
    at::Tensor xC = x.contiguous();
    at::Tensor yC = y.contiguous();
    at::Tensor result = at::empty_like(xC);
    EXEC_NPU_CMD(aclnnWhereBroadcastCustom, condC, xC, yC, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("where_broadcast_custom", &where_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("where_broadcast_custom", &where_broadcast_custom_impl_npu, "torch.where(cond, x, y) with broadcast cond");
}
