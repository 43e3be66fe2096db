#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Conv2d(3 -> 96, k=11, stride=4, pad=2) with bias.
at::Tensor conv_standard_2d_square_input_square_kernel_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(weight.dim() == 4 && weight.size(2) == weight.size(3), "square kernel expected");
    const int64_t k = weight.size(2);
    const int64_t oh = (x.size(2) + 2 * padding - k) / stride + 1;
    const int64_t ow = (x.size(3) + 2 * padding - k) / stride + 1;
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    EXEC_NPU_CMD(aclnnConvStandard2dSquareInputSquareKernelCustom, xc, wc, bc, stride, padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_standard_2d_square_input_square_kernel_custom",
           &conv_standard_2d_square_input_square_kernel_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_standard_2d_square_input_square_kernel_custom",
          &conv_standard_2d_square_input_square_kernel_custom_impl_npu,
          "conv2d 11x11 stride 4 pad 2 (NPU custom)");
}
