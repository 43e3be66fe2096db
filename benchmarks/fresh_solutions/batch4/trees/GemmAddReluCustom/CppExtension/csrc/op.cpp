#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// relu(x @ weight^T + bias); weight keeps nn.Linear layout (out_features, in_features)
at::Tensor gemm_add_relu_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    TORCH_CHECK(x.dim() == 2, "x must be (batch, in_features)");
    TORCH_CHECK(weight.size(1) == x.size(1), "weight/in_features mismatch");
    TORCH_CHECK(bias.numel() == weight.size(0), "bias must have out_features elements");
    at::Tensor x_c = x.contiguous();
    at::Tensor w_c = weight.contiguous();
    at::Tensor b_c = bias.reshape({weight.size(0)}).contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0)}, x.options());
    EXEC_NPU_CMD(aclnnGemmAddReluCustom, x_c, w_c, b_c, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_add_relu_custom", &gemm_add_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_add_relu_custom", &gemm_add_relu_impl_npu, "relu(x @ W^T + b)");
}
