#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear -> BatchNorm1d (batch statistics) -> + bias -> / divide_value -> swish
// The GEMM itself runs on the stock NPU linear; the custom kernel does the whole
// column-statistics + epilogue in two sweeps over the GEMM output.
at::Tensor matmul_batch_norm_bias_add_divide_swish_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                            const at::Tensor& lin_bias, const at::Tensor& bn_weight,
                                                            const at::Tensor& bn_bias, const at::Tensor& bias,
                                                            double bn_eps, double divide_value)
{
    at::Tensor y = at::linear(x, weight, lin_bias).contiguous();   // (batch, out_features)
    at::Tensor gamma = bn_weight.contiguous();
    at::Tensor beta = bn_bias.contiguous();
    at::Tensor extra = bias.reshape({-1}).contiguous();            // bias_shape == (1,)
    at::Tensor out = at::empty_like(y);
    EXEC_NPU_CMD(aclnnMatmulBatchNormBiasAddDivideSwishCustom, y, gamma, beta, extra, bn_eps, divide_value, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_batch_norm_bias_add_divide_swish_custom", &matmul_batch_norm_bias_add_divide_swish_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_batch_norm_bias_add_divide_swish_custom", &matmul_batch_norm_bias_add_divide_swish_impl_npu,
          "linear + bn + bias + divide + swish");
}
