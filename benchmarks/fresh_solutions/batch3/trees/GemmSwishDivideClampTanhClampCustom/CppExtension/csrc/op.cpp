#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// y = clamp(tanh(clamp(swish(x W^T + b) / 2, -1, 1)), -1, 1), one fused kernel.
at::Tensor gemm_swish_divide_clamp_tanh_clamp_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                       const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2, "expected x [M, K] and weight [N, K]");
    TORCH_CHECK(x.size(1) == weight.size(1), "in_features mismatch");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();   // nn.Linear layout [N, K]; kernel reads it transposed
    at::Tensor bc = bias.contiguous();
    at::Tensor out = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnGemmSwishDivideClampTanhClampCustom, xc, wc, bc, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_swish_divide_clamp_tanh_clamp_custom", &gemm_swish_divide_clamp_tanh_clamp_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_swish_divide_clamp_tanh_clamp_custom", &gemm_swish_divide_clamp_tanh_clamp_impl_npu,
          "linear -> swish -> /2 -> clamp -> tanh -> clamp");
}
