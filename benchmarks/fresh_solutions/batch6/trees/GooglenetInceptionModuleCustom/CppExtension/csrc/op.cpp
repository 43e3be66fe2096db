#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// 3x3/s1/p1 max pool on the NPU through the custom kernel
static at::Tensor inception_maxpool_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor pooled = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnGooglenetInceptionModuleCustom, xc, pooled);
    return pooled;
}

// Full inception block: the four branches are concatenated on the channel axis.
at::Tensor googlenet_inception_module_custom_impl_npu(
    const at::Tensor& x,
    const at::Tensor& w1x1, const at::Tensor& b1x1,
    const at::Tensor& w3x3_reduce, const at::Tensor& b3x3_reduce,
    const at::Tensor& w3x3, const at::Tensor& b3x3,
    const at::Tensor& w5x5_reduce, const at::Tensor& b5x5_reduce,
    const at::Tensor& w5x5, const at::Tensor& b5x5,
    const at::Tensor& wpool, const at::Tensor& bpool)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor br1 = at::conv2d(x, w1x1, b1x1);

    at::Tensor br3 = at::conv2d(x, w3x3_reduce, b3x3_reduce);
    br3 = at::conv2d(br3, w3x3, b3x3, /*stride=*/{1, 1}, /*padding=*/{1, 1});

    at::Tensor br5 = at::conv2d(x, w5x5_reduce, b5x5_reduce);
    br5 = at::conv2d(br5, w5x5, b5x5, /*stride=*/{1, 1}, /*padding=*/{2, 2});

    at::Tensor brp = at::conv2d(inception_maxpool_npu(x), wpool, bpool);

    return at::cat({br1, br3, br5, brp}, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("googlenet_inception_module_custom", &googlenet_inception_module_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("googlenet_inception_module_custom", &googlenet_inception_module_custom_impl_npu,
          "GoogLeNet inception module (custom max-pool branch)");
}
