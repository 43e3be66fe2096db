// pybind binding for IndexCopyCustom
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor index_copy_custom_impl_npu(const at::Tensor& x, const at::Tensor& indices, const at::Tensor& src)
{
    at::Tensor xc = x.contiguous();
    at::Tensor ic = indices.to(at::kLong).contiguous();
    at::Tensor sc = src.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnIndexCopyCustom, xc, ic, sc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("index_copy_custom", &index_copy_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("index_copy_custom", &index_copy_custom_impl_npu, "x.index_copy(0, indices, src)");
}
