#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// conv2d(x, weight), stride 1, no padding, no bias, square kernel.
at::Tensor direct_conv2d_nchw_impl_npu(const at::Tensor &x, const at::Tensor &weight)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "x (N,C,H,W) and weight (O,C,K,K) expected");
    TORCH_CHECK(x.size(1) == weight.size(1), "input channel mismatch");
    TORCH_CHECK(weight.size(2) == weight.size(3), "square kernels only");
    const int64_t k = weight.size(2);
    TORCH_CHECK(x.size(2) >= k && x.size(3) >= k, "input smaller than the kernel");
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.contiguous();
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - k + 1, x.size(3) - k + 1}, x.options());
    EXEC_NPU_CMD(aclnnDirectConv2dNchwCustom, xc, wc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("direct_conv2d_nchw_custom", &direct_conv2d_nchw_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("direct_conv2d_nchw_custom", &direct_conv2d_nchw_impl_npu, "valid 2d convolution, stride 1 (AscendC)");
}
