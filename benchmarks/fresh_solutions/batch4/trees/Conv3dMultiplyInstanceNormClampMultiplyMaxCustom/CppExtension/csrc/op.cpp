#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv3d -> * multiplier -> InstanceNorm3d (no affine) -> clamp -> * multiplier -> max over C
// Conv3d runs on the stock NPU op; everything after it is one custom kernel.
at::Tensor conv3d_multiply_instance_norm_clamp_multiply_max_impl_npu(const at::Tensor& x, const at::Tensor& conv_w,
                                                                     const at::Tensor& conv_b,
                                                                     const at::Tensor& multiplier,
                                                                     double clamp_min, double clamp_max)
{
    at::Tensor y = at::conv3d(x, conv_w, conv_b).contiguous();     // N, C, D, H, W
    at::Tensor mul = multiplier.reshape({-1}).contiguous();         // (C, 1, 1, 1) -> (C)
    TORCH_CHECK(mul.numel() == y.size(1), "multiplier must have one value per channel");
    at::Tensor out = at::empty({y.size(0), y.size(2), y.size(3), y.size(4)}, y.options());
    double eps = 1e-5;
    EXEC_NPU_CMD(aclnnConv3dMultiplyInstanceNormClampMultiplyMaxCustom, y, mul, clamp_min, clamp_max, eps, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_multiply_instance_norm_clamp_multiply_max_custom",
           &conv3d_multiply_instance_norm_clamp_multiply_max_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_multiply_instance_norm_clamp_multiply_max_custom",
          &conv3d_multiply_instance_norm_clamp_multiply_max_impl_npu,
          "conv3d + mul + instance norm + clamp + mul + channel max");
}
