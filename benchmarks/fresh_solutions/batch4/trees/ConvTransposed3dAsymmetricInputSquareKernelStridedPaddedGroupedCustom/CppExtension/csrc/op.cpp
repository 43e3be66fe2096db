#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d, cubic kernel, no bias, output_padding 0.
// weight layout follows nn.ConvTranspose3d: (C_in, C_out / groups, k, k, k)
at::Tensor conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, int64_t stride, int64_t padding, int64_t groups)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expect 5-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "C_in mismatch");
    TORCH_CHECK(x.size(1) % groups == 0, "C_in must be divisible by groups");
    const int64_t k = weight.size(2);
    const int64_t c_out = weight.size(1) * groups;
    auto out_len = [&](int64_t n) { return (n - 1) * stride - 2 * padding + k; };

    at::Tensor x_c = x.contiguous();
    at::Tensor w_c = weight.contiguous();
    at::Tensor y = at::empty({x.size(0), c_out, out_len(x.size(2)), out_len(x.size(3)), out_len(x.size(4))},
                             x.options());
    EXEC_NPU_CMD(aclnnConvTransposed3dAsymmetricInputSquareKernelStridedPaddedGroupedCustom,
                 x_c, w_c, stride, padding, groups, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_custom",
           &conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_custom",
          &conv_transposed_3d_asymmetric_input_square_kernel_strided_padded_grouped_impl_npu,
          "grouped strided ConvTranspose3d");
}
