#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// nn.ConvTranspose3d(Cin, Cout, K) with default stride 1 / padding 0 / dilation 1, no bias.
at::Tensor conv_transposed_3d_asymmetric_input_square_kernel_custom_impl_npu(const at::Tensor& x,
                                                                             const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "Cin mismatch");
    const int64_t k = weight.size(2);

    at::Tensor xc = x.contiguous();
    // [Cin, Cout, K, K, K] -> [K, K, K, Cout, Cin]: per-tap weight matrices, Cin innermost
    at::Tensor wt = weight.permute({2, 3, 4, 1, 0}).contiguous();

    // kernel accumulates with atomic adds, so the output starts at zero
    at::Tensor result = at::zeros({x.size(0), weight.size(1), x.size(2) + k - 1, x.size(3) + k - 1,
                                   x.size(4) + k - 1}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed3dAsymmetricInputSquareKernelCustom, xc, wt, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_3d_asymmetric_input_square_kernel_custom",
           &conv_transposed_3d_asymmetric_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_3d_asymmetric_input_square_kernel_custom",
          &conv_transposed_3d_asymmetric_input_square_kernel_custom_impl_npu,
          "ConvTranspose3d (stride 1) via scatter + atomic add");
}
