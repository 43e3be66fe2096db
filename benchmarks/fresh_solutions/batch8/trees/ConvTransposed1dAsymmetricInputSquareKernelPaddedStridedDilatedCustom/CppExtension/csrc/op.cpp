#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = conv_transpose1d(x, weight, stride, padding, dilation), no bias.
// x: (N, Cin, L), weight: (Cin, Cout, K) -- the ConvTranspose1d layout.
at::Tensor strided_dilated_deconv1d_impl_npu(const at::Tensor &x, const at::Tensor &weight,
                                             int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 3, "x must be (N, Cin, L)");
    TORCH_CHECK(weight.dim() == 3, "weight must be (Cin, Cout, K)");
    TORCH_CHECK(x.size(1) == weight.size(0), "channel mismatch between x and weight");
    const int64_t len = x.size(2);
    const int64_t k = weight.size(2);
    const int64_t outLen = (len - 1) * stride - 2 * padding + dilation * (k - 1) + 1;
    TORCH_CHECK(outLen > 0, "non-positive output length");

    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(1), outLen}, x.options());
    EXEC_NPU_CMD(aclnnStridedDilatedDeconv1dCustom, xc, wc, stride, padding, dilation, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("strided_dilated_deconv1d_custom", &strided_dilated_deconv1d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("strided_dilated_deconv1d_custom", &strided_dilated_deconv1d_impl_npu,
          "transposed 1d convolution with stride/padding/dilation (AscendC)");
}
