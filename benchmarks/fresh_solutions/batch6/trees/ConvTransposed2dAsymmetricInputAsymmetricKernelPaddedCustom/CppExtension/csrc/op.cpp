#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose2d with stride (1, 1), asymmetric kernel/padding, no bias.
at::Tensor conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, int64_t pad_h, int64_t pad_w)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected 4-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "weight must be [Cin, Cout, KH, KW]");
    int64_t hout = x.size(2) - 1 - 2 * pad_h + weight.size(2);
    int64_t wout = x.size(3) - 1 - 2 * pad_w + weight.size(3);
    at::Tensor y = at::empty({x.size(0), weight.size(1), hout, wout}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    EXEC_NPU_CMD(aclnnConvTransposed2dAsymmetricInputAsymmetricKernelPaddedCustom, xc, wc, pad_h, pad_w, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom",
           &conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom",
          &conv_transposed_2d_asymmetric_input_asymmetric_kernel_padded_custom_impl_npu,
          "conv_transpose2d stride 1 (NPU custom)");
}
