#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv3d, stride 1 / no padding / no bias, weight (Cout, Cin, kD, kH, kW).
at::Tensor conv_standard_3d_asymmetric_input_asymmetric_kernel_custom_impl_npu(const at::Tensor &x,
                                                                               const at::Tensor &weight)
{
    TORCH_CHECK(x.dim() == 5 && weight.dim() == 5, "expected 5-D input and weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "channel mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    const int64_t od = x.size(2) - weight.size(2) + 1;
    const int64_t oh = x.size(3) - weight.size(3) + 1;
    const int64_t ow = x.size(4) - weight.size(4) + 1;
    at::Tensor result = at::empty({x.size(0), weight.size(0), od, oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnConvStandard3dAsymmetricInputAsymmetricKernelCustom, xc, wc, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_3d_asymmetric_input_asymmetric_kernel_custom",
           &conv_standard_3d_asymmetric_input_asymmetric_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_3d_asymmetric_input_asymmetric_kernel_custom",
          &conv_standard_3d_asymmetric_input_asymmetric_kernel_custom_impl_npu,
          "Conv3d with asymmetric kernel (direct vector implementation)");
}
