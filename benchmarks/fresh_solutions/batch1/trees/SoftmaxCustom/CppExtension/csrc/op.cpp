#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// torch.softmax(x, dim=1) for a 2D input: dim 1 is the last dim, which is what the kernel reduces over.
at::Tensor softmax_custom_impl_npu(const at::Tensor& self)
{
    TORCH_CHECK(self.dim() == 2, "softmax_custom expects a [batch, features] tensor");
    at::Tensor x = self.contiguous();
    at::Tensor result = at::empty_like(x);
    EXEC_NPU_CMD(aclnnSoftmaxCustom, x, result);
    return result;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("softmax_custom", &softmax_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("softmax_custom", &softmax_custom_impl_npu, "softmax along dim 1");
}
