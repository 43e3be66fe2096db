#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// 反卷积本身走 torch_npu 的 conv_transpose3d（cube 计算），
// 后面的 "+ add_input" 与 "x * hardswish(x)" 融合成一个向量算子，省去两次中间结果读写。
// 注：模型中的 self.bias 在 forward 里并未使用，这里也不需要传入。
at::Tensor conv_transpose3d_add_hard_swish_custom_impl_npu(
    const at::Tensor& x, const at::Tensor& add_input,
    const at::Tensor& weight, const at::Tensor& conv_bias,
    int64_t stride, int64_t padding, int64_t output_padding)
{
    at::Tensor convOut = at::conv_transpose3d(
        x, weight, conv_bias,
        {stride, stride, stride}, {padding, padding, padding},
        {output_padding, output_padding, output_padding}).contiguous();
    at::Tensor addIn = add_input.contiguous();
    TORCH_CHECK(convOut.sizes() == addIn.sizes(), "shape mismatch between conv_transpose3d output and add_input");
    at::Tensor result = at::empty_like(convOut);
    EXEC_NPU_CMD(aclnnConvTranspose3dAddHardSwishCustom, convOut, addIn, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv_transpose3d_add_hard_swish_custom", &conv_transpose3d_add_hard_swish_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv_transpose3d_add_hard_swish_custom", &conv_transpose3d_add_hard_swish_custom_impl_npu,
          "conv_transpose3d + add + x * hardswish(x)");
}
