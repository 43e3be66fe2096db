#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose3d(stride=1, padding=0, output_padding=0, groups=1, bias=False)
at::Tensor conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom_impl_npu(const at::Tensor& x,
                                                                                 const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(0), "in_channels mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor result = at::empty({x.size(0), weight.size(1),
                                   x.size(2) + weight.size(2) - 1,
                                   x.size(3) + weight.size(3) - 1,
                                   x.size(4) + weight.size(4) - 1}, x.options());
    EXEC_NPU_CMD(aclnnConvTransposed3dAsymmetricInputAsymmetricKernelCustom, xc, wc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom",
           &conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom",
          &conv_transposed_3d_asymmetric_input_asymmetric_kernel_custom_impl_npu,
          "3D transposed convolution (stride 1, no padding)");
}
