#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias, const at::Tensor& multiplier,
    double negative_slope)
{
    // k=3, s=2, p=1, op=1 doubles every spatial dim, the 2x pool halves it back
    at::Tensor y = at::empty({x.size(0), weight.size(1), x.size(2), x.size(3), x.size(4)}, x.options());
    EXEC_NPU_CMD(aclnnConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom, x, weight, bias, multiplier,
                 negative_slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom",
           &conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom",
          &conv_transpose3d_leaky_relu_multiply_leaky_relu_max_custom_impl_npu,
          "conv_transpose3d + leaky_relu + mul + leaky_relu + max_pool3d");
}
