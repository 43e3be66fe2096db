#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Elementwise part only: y = s * hardswish(s), s = x + residual.
at::Tensor residual_hswish_gate_impl_npu(const at::Tensor &x, const at::Tensor &residual)
{
    TORCH_CHECK(x.sizes() == residual.sizes(), "x and residual must have the same shape");
    at::Tensor xc = x.contiguous();
    at::Tensor rc = residual.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnResidualHswishGateCustom, xc, rc, y);
    return y;
}

// Full block: the transposed 3d convolution (with its own bias) stays on the vendor
// kernel, the add + x*hardswish(x) epilogue is fused in the custom op.
at::Tensor deconv3d_residual_hswish_gate(const at::Tensor &x, const at::Tensor &residual,
                                         const at::Tensor &weight, const at::Tensor &bias,
                                         int64_t stride, int64_t padding, int64_t output_padding)
{
    at::Tensor conv = at::conv_transpose3d(x, weight, bias,
                                           {stride, stride, stride},
                                           {padding, padding, padding},
                                           {output_padding, output_padding, output_padding});
    return residual_hswish_gate_impl_npu(conv, residual);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("residual_hswish_gate_custom", &residual_hswish_gate_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("residual_hswish_gate_custom", &residual_hswish_gate_impl_npu, "(x + r) * hardswish(x + r)");
    m.def("deconv3d_residual_hswish_gate", &deconv3d_residual_hswish_gate,
          "conv_transpose3d followed by the fused residual/hardswish epilogue");
}
