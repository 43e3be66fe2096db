// binding: conv3d via aten, fused depth-min + softmax via custom op
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv3d_min_softmax_custom_impl_npu(const at::Tensor &x, const at::Tensor &w, const at::Tensor &b)
{
    at::Tensor y = at::conv3d(x, w, b).contiguous();
    at::Tensor out = at::empty({y.size(0), y.size(1), y.size(3), y.size(4)}, y.options());
    EXEC_NPU_CMD(aclnnConv3dMinSoftmaxCustom, y, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_min_softmax_custom", &conv3d_min_softmax_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_min_softmax_custom", &conv3d_min_softmax_custom_impl_npu, "conv3d + min(dim=2) + softmax(dim=1)");
}
