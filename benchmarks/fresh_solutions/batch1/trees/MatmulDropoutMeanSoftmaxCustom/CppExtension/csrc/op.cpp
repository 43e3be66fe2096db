#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear -> Dropout -> softmax(dim=1).
// The GEMM goes to the cube via at::matmul; dropout is the identity in eval
// mode; bias add + softmax are fused in the custom kernel.
at::Tensor matmul_dropout_mean_softmax_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                       const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 2, "x must be 2-D (batch, in_features)");
    at::Tensor logits = at::matmul(x, weight.t()).contiguous();
    at::Tensor b = bias.contiguous();
    at::Tensor result = at::empty_like(logits);
    EXEC_NPU_CMD(aclnnMatmulDropoutMeanSoftmaxCustom, logits, b, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_dropout_mean_softmax_custom", &matmul_dropout_mean_softmax_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_dropout_mean_softmax_custom", &matmul_dropout_mean_softmax_custom_impl_npu,
          "linear + dropout(eval) + softmax over features");
}
