#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// mish(conv2d(x, weight, bias) - shift_a - shift_b); stride 1, no padding
at::Tensor conv_shift_mish_impl_npu(const at::Tensor &x, const at::Tensor &weight, const at::Tensor &bias,
                                    double shift_a, double shift_b)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and OIHW weight");
    TORCH_CHECK(x.size(1) == weight.size(1), "channel mismatch");
    const int64_t oh = x.size(2) - weight.size(2) + 1;
    const int64_t ow = x.size(3) - weight.size(3) + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0), oh, ow}, x.options());
    float a = static_cast<float>(shift_a);
    float b = static_cast<float>(shift_b);
    EXEC_NPU_CMD(aclnnConvShiftMishCustom, xc, wc, bc, a, b, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("conv_shift_mish_custom", &conv_shift_mish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("conv_shift_mish_custom", &conv_shift_mish_impl_npu, "conv2d -> subtract -> subtract -> mish (NPU)");
}
