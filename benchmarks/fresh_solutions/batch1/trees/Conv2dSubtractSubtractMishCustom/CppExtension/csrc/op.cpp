#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d (stride 1, no padding) -> x - s1 -> x - s2 -> mish, fused in one kernel
at::Tensor conv2d_subtract_subtract_mish_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                         const at::Tensor& bias, double subtract_value_1,
                                                         double subtract_value_2)
{
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    TORCH_CHECK(weight.dim() == 4, "weight must be [Cout, Cin, K, K]");
    int64_t k = weight.size(2);
    int64_t outH = x.size(2) - k + 1;
    int64_t outW = x.size(3) - k + 1;
    at::Tensor result = at::empty({x.size(0), weight.size(0), outH, outW}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    EXEC_NPU_CMD(aclnnConv2dSubtractSubtractMishCustom, xc, wc, bc, subtract_value_1, subtract_value_2, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_subtract_subtract_mish_custom", &conv2d_subtract_subtract_mish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_subtract_subtract_mish_custom", &conv2d_subtract_subtract_mish_custom_impl_npu,
          "conv2d + subtract + subtract + mish");
}
