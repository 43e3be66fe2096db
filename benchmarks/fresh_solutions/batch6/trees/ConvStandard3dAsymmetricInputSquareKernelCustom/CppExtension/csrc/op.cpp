// pybind binding for ConvStandard3dAsymmetricInputSquareKernelCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_standard_3d_asymmetric_input_square_kernel_custom_impl_npu(const at::Tensor& x,
                                                                           const at::Tensor& weight)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    int64_t ho = xc.size(2) - wc.size(2) + 1;
    int64_t wo = xc.size(3) - wc.size(3) + 1;
    int64_t dout = xc.size(4) - wc.size(4) + 1;
    at::Tensor y = at::empty({xc.size(0), wc.size(0), ho, wo, dout}, xc.options());
    EXEC_NPU_CMD(aclnnConvStandard3dAsymmetricInputSquareKernelCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_3d_asymmetric_input_square_kernel_custom",
           &conv_standard_3d_asymmetric_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_3d_asymmetric_input_square_kernel_custom",
          &conv_standard_3d_asymmetric_input_square_kernel_custom_impl_npu, "conv3d (k, k, 1)");
}
