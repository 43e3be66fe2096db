#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv3d is left to the NPU conv implementation; the custom kernel fuses
// softmax(dim=1) + MaxPool3d(k) + MaxPool3d(k) on the conv output.
at::Tensor conv3d_softmax_max_pool_max_pool_custom_impl_npu(const at::Tensor& x,
                                                            const at::Tensor& weight,
                                                            const at::Tensor& bias,
                                                            int64_t pool_kernel_size)
{
    at::Tensor conv_out = at::conv3d(x, weight, bias).contiguous();
    // two back-to-back pools of size k with stride k == one pool of size k*k
    int64_t win = pool_kernel_size * pool_kernel_size;
    auto sz = conv_out.sizes();
    at::Tensor result = at::empty({sz[0], sz[1], sz[2] / win, sz[3] / win, sz[4] / win}, conv_out.options());
    EXEC_NPU_CMD(aclnnConv3dSoftmaxMaxPoolMaxPoolCustom, conv_out, pool_kernel_size, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_softmax_max_pool_max_pool_custom", &conv3d_softmax_max_pool_max_pool_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_softmax_max_pool_max_pool_custom", &conv3d_softmax_max_pool_max_pool_custom_impl_npu,
          "conv3d -> softmax(dim=1) -> maxpool3d -> maxpool3d");
}
