#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv_transpose2d is delegated to the NPU aten op; the custom kernel reduces
// the (N, C, H, W) feature map with maxpool -> hardtanh -> mean(H, W) -> tanh.
at::Tensor conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_impl_npu(
    const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
    int64_t stride, int64_t padding, int64_t pool_k, int64_t pool_s,
    double ht_min, double ht_max)
{
    at::Tensor feat = at::conv_transpose2d(x, weight, bias, {stride, stride}, {padding, padding}).contiguous();
    at::Tensor out = at::empty({feat.size(0), feat.size(1), 1, 1}, feat.options());
    EXEC_NPU_CMD(aclnnConvTranspose2dMaxPoolHardtanhMeanTanhCustom, feat, pool_k, pool_s, ht_min, ht_max, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose2d_max_pool_hardtanh_mean_tanh_custom",
           &conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose2d_max_pool_hardtanh_mean_tanh_custom",
          &conv_transpose2d_max_pool_hardtanh_mean_tanh_custom_impl_npu,
          "conv_transpose2d + maxpool2d + hardtanh + mean + tanh");
}
