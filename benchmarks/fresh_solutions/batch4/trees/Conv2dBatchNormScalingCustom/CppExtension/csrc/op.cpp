#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d -> BatchNorm2d (batch statistics, as in training mode) -> * scaling_factor
// The convolution goes through the stock NPU conv; the custom op computes per-channel
// mean/var over (N, H, W) and applies the affine + scaling in one pass.
at::Tensor conv2d_batch_norm_scaling_impl_npu(const at::Tensor& x, const at::Tensor& conv_w,
                                              const at::Tensor& conv_b, const at::Tensor& bn_w,
                                              const at::Tensor& bn_b, double eps, double scaling_factor)
{
    at::Tensor y = at::conv2d(x, conv_w, conv_b).contiguous();
    at::Tensor gamma = bn_w.contiguous();
    at::Tensor beta = bn_b.contiguous();
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnConv2dBatchNormScalingCustom, y, gamma, beta, eps, scaling_factor, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_batch_norm_scaling_custom", &conv2d_batch_norm_scaling_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_batch_norm_scaling_custom", &conv2d_batch_norm_scaling_impl_npu,
          "conv2d + batch norm + scaling");
}
