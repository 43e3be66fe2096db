#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv2d, asymmetric kernel (5, 7), stride 1, no padding, no bias.
at::Tensor conv_standard_2d_asymmetric_input_asymmetric_kernel_custom_impl_npu(const at::Tensor& x,
                                                                               const at::Tensor& weight)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and OIHW weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "channel mismatch (groups must be 1)");
    // [OC, C, KH, KW] -> [C, KH, KW, OC]: the kernel reads all OC of one tap contiguously
    at::Tensor wt = weight.permute({1, 2, 3, 0}).contiguous();
    int64_t oh = x.size(2) - weight.size(2) + 1;
    int64_t ow = x.size(3) - weight.size(3) + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    at::Tensor xc = x.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard2dAsymmetricInputAsymmetricKernelCustom, xc, wt, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_2d_asymmetric_input_asymmetric_kernel_custom",
           &conv_standard_2d_asymmetric_input_asymmetric_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_2d_asymmetric_input_asymmetric_kernel_custom",
          &conv_standard_2d_asymmetric_input_asymmetric_kernel_custom_impl_npu,
          "conv2d (5x7 kernel, valid) NPU custom");
}
