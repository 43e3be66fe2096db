#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose3d runs through ATen (cube-heavy, well served by the stock
// kernel); scale + training-mode batch norm + global average pool are fused
// into one custom reduction kernel.
at::Tensor conv_transpose3d_scale_batch_norm_global_avg_pool_custom_impl_npu(
    const at::Tensor &x, const at::Tensor &convWeight, const at::Tensor &convBias,
    const at::Tensor &bnWeight, const at::Tensor &bnBias, double scaleFactor, double eps)
{
    at::Tensor conv = at::conv_transpose3d(x, convWeight, convBias).contiguous();
    at::Tensor gamma = bnWeight.contiguous();
    at::Tensor beta = bnBias.contiguous();
    at::Tensor result = at::empty({conv.size(0), conv.size(1), 1, 1, 1}, conv.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dScaleBatchNormGlobalAvgPoolCustom, conv, gamma, beta, scaleFactor, eps,
                 result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_scale_batch_norm_global_avg_pool_custom",
           &conv_transpose3d_scale_batch_norm_global_avg_pool_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_scale_batch_norm_global_avg_pool_custom",
          &conv_transpose3d_scale_batch_norm_global_avg_pool_custom_impl_npu,
          "conv_transpose3d -> *scale -> batch_norm(train) -> global avg pool");
}
