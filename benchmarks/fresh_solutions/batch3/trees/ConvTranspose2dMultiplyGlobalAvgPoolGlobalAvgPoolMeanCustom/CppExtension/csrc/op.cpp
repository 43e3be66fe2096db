#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// The transposed convolution itself is left to the vendor conv (at::conv_transpose2d);
// the custom op fuses the scalar multiply and the two global average pools into a
// single spatial reduction (the second mean over a 1x1 map is the identity).
at::Tensor conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias,
    int64_t stride, int64_t padding, int64_t output_padding, double multiplier)
{
    at::Tensor y = at::conv_transpose2d(x, weight, bias,
                                        {stride, stride}, {padding, padding},
                                        {output_padding, output_padding}, 1, {1, 1});
    y = y.contiguous();
    at::Tensor out = at::empty({y.size(0), y.size(1), 1, 1}, y.options());
    EXEC_NPU_CMD(aclnnConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom, y, multiplier, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom",
           &conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_custom",
          &conv_transpose2d_multiply_global_avg_pool_global_avg_pool_mean_impl_npu,
          "conv_transpose2d -> * multiplier -> mean(HW) -> mean(HW)");
}
