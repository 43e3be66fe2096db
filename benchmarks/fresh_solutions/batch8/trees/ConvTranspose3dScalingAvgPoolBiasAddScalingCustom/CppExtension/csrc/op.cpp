#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = (avg_pool3d(x, 2) * scale_in + bias[c]) * scale_out
at::Tensor scaled_avg_pool3d_bias_impl_npu(const at::Tensor &x, const at::Tensor &bias,
                                           double scale_in, double scale_out)
{
    TORCH_CHECK(x.dim() == 5, "x must be NCDHW");
    at::Tensor xc = x.contiguous();
    at::Tensor bc = bias.reshape({-1}).contiguous();
    TORCH_CHECK(bc.size(0) == x.size(1), "bias must have one value per channel");
    at::Tensor y = at::empty({x.size(0), x.size(1), x.size(2) / 2, x.size(3) / 2, x.size(4) / 2}, x.options());
    EXEC_NPU_CMD(aclnnScaledAvgPool3dBiasCustom, xc, bc, scale_in, scale_out, y);
    return y;
}

// Whole block: transposed conv on the stock kernel, everything after it fused.
at::Tensor deconv3d_scaled_pool_bias(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &conv_bias,
                                     int64_t stride, int64_t padding, const at::Tensor &scale1,
                                     const at::Tensor &bias, const at::Tensor &scale2)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, conv_bias, {stride, stride, stride},
                                           {padding, padding, padding});
    const double s1 = scale1.item<double>();
    const double s2 = scale2.item<double>();
    return scaled_avg_pool3d_bias_impl_npu(conv, bias, s1, s2);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("scaled_avg_pool3d_bias_custom", &scaled_avg_pool3d_bias_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("scaled_avg_pool3d_bias_custom", &scaled_avg_pool3d_bias_impl_npu,
          "(avg_pool3d(x, 2) * s_in + bias) * s_out");
    m.def("deconv3d_scaled_pool_bias", &deconv3d_scaled_pool_bias,
          "conv_transpose3d -> scale -> avg_pool3d(2) -> +bias -> scale");
}
