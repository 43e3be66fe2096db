#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include <torch/extension.h>
#include "pytorch_npu_helper.hpp"

// maxpool(tanh(conv2d(x, w, cb)) * scale + pb), pool stride == pool size
at::Tensor conv_pool_tanh_affine_impl_npu(const at::Tensor &x, const at::Tensor &conv_weight,
                                          const at::Tensor &conv_bias, const at::Tensor &post_bias,
                                          double scale, int64_t pool_size)
{
    TORCH_CHECK(x.dim() == 4 && conv_weight.dim() == 4, "expected NCHW / OIHW");
    TORCH_CHECK(pool_size > 0, "pool_size must be positive");
    const int64_t oh = x.size(2) - conv_weight.size(2) + 1;
    const int64_t ow = x.size(3) - conv_weight.size(3) + 1;
    at::Tensor xc = x.contiguous();
    at::Tensor wc = conv_weight.contiguous();
    at::Tensor cb = conv_bias.contiguous();
    at::Tensor pb = post_bias.reshape({-1}).contiguous();   // (C, 1, 1) -> (C)
    at::Tensor y = at::empty({x.size(0), conv_weight.size(0), oh / pool_size, ow / pool_size}, x.options());
    float s = static_cast<float>(scale);
    EXEC_NPU_CMD(aclnnConvPoolTanhAffineCustom, xc, wc, cb, pb, s, pool_size, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m)
{
    m.impl("conv_pool_tanh_affine_custom", &conv_pool_tanh_affine_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("conv_pool_tanh_affine_custom", &conv_pool_tanh_affine_impl_npu,
          "conv2d -> tanh -> scale -> +bias -> maxpool2d (NPU)");
}
