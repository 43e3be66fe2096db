#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_select_custom_impl_npu(const at::Tensor& x, int64_t dim, const at::Tensor& indices)
{
    int64_t d = dim < 0 ? dim + x.dim() : dim;
    TORCH_CHECK(d >= 0 && d < x.dim(), "index_select_custom: dim out of range");
    // kernel 侧使用 int32 索引（Gather 偏移也是 32 位），这里统一转换
    at::Tensor index32 = indices.reshape({-1}).to(at::kInt).contiguous();
    auto outSize = x.sizes().vec();
    outSize[d] = index32.numel();
    at::Tensor result = at::empty(outSize, x.options());
    EXEC_NPU_CMD(aclnnIndexSelectCustom, x, index32, d, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_select_custom", &index_select_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_select_custom", &index_select_custom_impl_npu, "torch.index_select(x, dim, index)");
}
