#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose3d (stock op) followed by the fused
// multiply -> MaxPool3d(2) -> AdaptiveAvgPool3d(1) -> clamp custom kernel.
at::Tensor conv_transpose3d_multiply_max_global_avg_pool_clamp_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    int64_t stride, int64_t padding, double scale, double clampMin, double clampMax)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, bias,
                                           {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    at::Tensor out = at::empty({conv.size(0), conv.size(1), 1, 1, 1}, conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom, conv, scale, clampMin, clampMax, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_multiply_max_global_avg_pool_clamp_custom",
           &conv_transpose3d_multiply_max_global_avg_pool_clamp_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_multiply_max_global_avg_pool_clamp_custom",
          &conv_transpose3d_multiply_max_global_avg_pool_clamp_impl_npu,
          "conv_transpose3d -> *scale -> maxpool3d(2) -> global avg pool -> clamp");
}
