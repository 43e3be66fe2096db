#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_depthwise_2d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                      int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expect NCHW input and (C,1,K,K) weight");
    int64_t k = weight.size(2);
    int64_t oh = (x.size(2) + 2 * padding - k) / stride + 1;
    int64_t ow = (x.size(3) + 2 * padding - k) / stride + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnConvDepthwise2dAsymmetricInputSquareKernelCustom, x, weight, stride, padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_depthwise_2d_asymmetric_input_square_kernel_custom", &conv_depthwise_2d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_depthwise_2d_asymmetric_input_square_kernel_custom", &conv_depthwise_2d_impl_npu,
          "depthwise conv2d (bias-free)");
}
