#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor division_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& scale)
{
    TORCH_CHECK(scale.dim() <= x.dim(), "division_broadcast_custom: scale rank must not exceed x rank");
    at::Tensor xc = x.contiguous();
    at::Tensor sc = scale.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnDivisionBroadcastCustom, xc, sc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("division_broadcast_custom", &division_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("division_broadcast_custom", &division_broadcast_custom_impl_npu, "x / scale (broadcast)");
}
