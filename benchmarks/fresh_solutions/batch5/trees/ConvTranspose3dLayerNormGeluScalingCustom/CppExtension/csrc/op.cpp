#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose3d via ATen, then LayerNorm(last dim) + GELU + scaling fused in
// the custom kernel.
at::Tensor conv_transpose3d_layer_norm_gelu_scaling_custom_impl_npu(
    const at::Tensor &x, const at::Tensor &convWeight, const c10::optional<at::Tensor> &convBias,
    int64_t stride, int64_t padding, const at::Tensor &lnWeight, const at::Tensor &lnBias,
    double eps, double scalingFactor)
{
    at::Tensor conv = at::conv_transpose3d(x, convWeight, convBias, {stride, stride, stride},
                                           {padding, padding, padding}).contiguous();
    TORCH_CHECK(conv.size(-1) == lnWeight.numel(),
                "layer_norm normalized_shape must match the last dim of the conv output");
    at::Tensor w = lnWeight.contiguous();
    at::Tensor b = lnBias.contiguous();
    at::Tensor result = at::empty_like(conv);
    EXEC_NPU_CMD(aclnnConvTranspose3dLayerNormGeluScalingCustom, conv, w, b, eps, scalingFactor, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_layer_norm_gelu_scaling_custom",
           &conv_transpose3d_layer_norm_gelu_scaling_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_layer_norm_gelu_scaling_custom",
          &conv_transpose3d_layer_norm_gelu_scaling_custom_impl_npu,
          "conv_transpose3d -> layer_norm(last dim) -> gelu -> * scaling_factor");
}
