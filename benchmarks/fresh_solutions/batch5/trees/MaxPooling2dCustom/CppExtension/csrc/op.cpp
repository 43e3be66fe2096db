#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor max_pooling_2d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4, "max_pooling_2d_custom: expect 4D input (N, C, H, W)");
    int64_t oh = (x.size(2) + 2 * padding - kernel_size) / stride + 1;
    int64_t ow = (x.size(3) + 2 * padding - kernel_size) / stride + 1;
    at::Tensor result = at::empty({x.size(0), x.size(1), oh, ow}, x.options());
    EXEC_NPU_CMD(aclnnMaxPooling2dCustom, x, kernel_size, stride, padding, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("max_pooling_2d_custom", &max_pooling_2d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("max_pooling_2d_custom", &max_pooling_2d_custom_impl_npu, "MaxPool2d (dilation=1)");
}
