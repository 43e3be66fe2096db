#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor max_pooling_1d_custom_impl_npu(const at::Tensor &x, int64_t kernelSize, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 3, "max_pooling_1d_custom expects (N, C, L)");
    if (stride <= 0) {
        stride = kernelSize;
    }
    const int64_t outLen = (x.size(2) + 2 * padding - kernelSize) / stride + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor result = at::empty({x.size(0), x.size(1), outLen}, x.options());
    EXEC_NPU_CMD(aclnnMaxPooling1dCustom, xc, kernelSize, stride, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("max_pooling_1d_custom", &max_pooling_1d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("max_pooling_1d_custom", &max_pooling_1d_custom_impl_npu, "MaxPool1d (stride 1)");
}
