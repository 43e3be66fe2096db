#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor power_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& exponent)
{
    TORCH_CHECK(exponent.dim() == 1 && exponent.size(0) == x.size(-1),
                "exponent must be 1-D and match the last dim of x");
    at::Tensor xc = x.contiguous();
    at::Tensor ec = exponent.contiguous();
    at::Tensor result = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnPowerBroadcastCustom, xc, ec, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("power_broadcast_custom", &power_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("power_broadcast_custom", &power_broadcast_custom_impl_npu, "x ** exponent (broadcast on last dim)");
}
