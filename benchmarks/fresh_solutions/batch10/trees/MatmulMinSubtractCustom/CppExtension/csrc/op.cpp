#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Linear + min(., c) - c in one cube/vector kernel.
at::Tensor matmul_min_subtract_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                               const at::Tensor& bias, double constant)
{
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor bc = bias.contiguous();
    at::Tensor y = at::empty({xc.size(0), wc.size(0)}, xc.options());
    EXEC_NPU_CMD(aclnnMatmulMinSubtractCustom, xc, wc, bc, constant, y);
    return y;
}

// Convenience overload for the nn.Parameter constant held by the model.
at::Tensor matmul_min_subtract_custom_tensor_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                      const at::Tensor& bias, const at::Tensor& constant)
{
    return matmul_min_subtract_custom_impl_npu(x, weight, bias, constant.item<double>());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("matmul_min_subtract_custom", &matmul_min_subtract_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("matmul_min_subtract_custom", &matmul_min_subtract_custom_impl_npu, "min(x @ W^T + b, c) - c");
    m.def("matmul_min_subtract_custom_t", &matmul_min_subtract_custom_tensor_impl_npu,
          "min(x @ W^T + b, c) - c with c given as a tensor");
}
