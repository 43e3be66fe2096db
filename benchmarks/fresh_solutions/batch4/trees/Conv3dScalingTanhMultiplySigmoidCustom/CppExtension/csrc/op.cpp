// binding: conv3d via aten, fused scale/tanh/mul/sigmoid via custom op
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv3d_scaling_tanh_multiply_sigmoid_custom_impl_npu(const at::Tensor &x, const at::Tensor &w,
                                                                const at::Tensor &cb, const at::Tensor &scaling,
                                                                const at::Tensor &bias)
{
    at::Tensor c = at::conv3d(x, w, cb).contiguous();
    at::Tensor s = scaling.contiguous().view({-1});
    at::Tensor b = bias.contiguous().view({-1});
    at::Tensor y = at::empty_like(c);
    EXEC_NPU_CMD(aclnnConv3dScalingTanhMultiplySigmoidCustom, c, s, b, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv3d_scaling_tanh_multiply_sigmoid_custom", &conv3d_scaling_tanh_multiply_sigmoid_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv3d_scaling_tanh_multiply_sigmoid_custom", &conv3d_scaling_tanh_multiply_sigmoid_custom_impl_npu,
          "conv3d -> *s -> tanh -> *b -> sigmoid");
}
