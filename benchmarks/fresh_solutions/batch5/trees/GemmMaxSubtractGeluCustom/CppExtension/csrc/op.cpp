#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// GEMM（1024x8192x8192）交给 cube 上的 at::linear，
// 之后的 max -> 减均值 -> GELU 三步由自定义向量算子一次完成，避免中间张量来回搬运。
at::Tensor gemm_max_subtract_gelu_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                  const at::Tensor& bias, int64_t max_dim)
{
    at::Tensor gemmOut = at::linear(x, weight, bias).contiguous();
    int64_t dim = max_dim < 0 ? max_dim + 2 : max_dim;
    TORCH_CHECK(dim == 0 || dim == 1, "gemm_max_subtract_gelu_custom: max_dim must be 0 or 1");
    at::Tensor result = (dim == 1) ? at::empty({gemmOut.size(0), 1}, gemmOut.options())
                                   : at::empty({1, gemmOut.size(1)}, gemmOut.options());
    EXEC_NPU_CMD(aclnnGemmMaxSubtractGeluCustom, gemmOut, dim, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("gemm_max_subtract_gelu_custom", &gemm_max_subtract_gelu_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gemm_max_subtract_gelu_custom", &gemm_max_subtract_gelu_custom_impl_npu,
          "linear -> max(dim, keepdim) -> x - mean(dim=1) -> gelu");
}
