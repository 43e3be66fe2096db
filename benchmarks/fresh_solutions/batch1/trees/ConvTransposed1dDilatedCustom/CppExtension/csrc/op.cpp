#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// x: (N, Cin, L), weight: (Cin, Cout, K) as stored by nn.ConvTranspose1d
at::Tensor conv_transposed_1d_dilated_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                      int64_t stride, int64_t padding, int64_t dilation)
{
    TORCH_CHECK(x.dim() == 3, "x must be (N, Cin, L)");
    TORCH_CHECK(weight.dim() == 3, "weight must be (Cin, Cout, K)");
    TORCH_CHECK(x.size(1) == weight.size(0), "channel mismatch between x and weight");
    TORCH_CHECK(stride == 1, "conv_transposed_1d_dilated_custom only supports stride 1");

    int64_t outLen = (x.size(2) - 1) * stride - 2 * padding + dilation * (weight.size(2) - 1) + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor result = at::empty({x.size(0), weight.size(1), outLen}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed1dDilatedCustom, xc, wc, stride, padding, dilation, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_1d_dilated_custom", &conv_transposed_1d_dilated_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_1d_dilated_custom", &conv_transposed_1d_dilated_custom_impl_npu,
          "transposed 1d convolution with dilation (stride 1)");
}
