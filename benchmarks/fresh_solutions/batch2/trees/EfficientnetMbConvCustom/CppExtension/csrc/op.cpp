#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// Fold an inference-mode BatchNorm into a per-channel (scale, shift) pair.
static std::pair<at::Tensor, at::Tensor> fold_bn(const at::Tensor& gamma, const at::Tensor& beta,
                                                 const at::Tensor& mean, const at::Tensor& var, double eps)
{
    at::Tensor scale = gamma / at::sqrt(var + eps);
    at::Tensor shift = beta - mean * scale;
    return {scale.contiguous(), shift.contiguous()};
}

// Custom op: depthwise conv + BN(affine) + ReLU6 in one kernel.
at::Tensor efficientnet_mb_conv_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                const at::Tensor& scale, const at::Tensor& shift,
                                                int64_t kernel_size, int64_t stride, int64_t padding)
{
    TORCH_CHECK(x.dim() == 4, "x must be NCHW");
    int64_t oh = (x.size(2) + 2 * padding - kernel_size) / stride + 1;
    int64_t ow = (x.size(3) + 2 * padding - kernel_size) / stride + 1;
    at::Tensor result = at::empty({x.size(0), x.size(1), oh, ow}, x.options());
    at::Tensor xc = x.contiguous();
    at::Tensor wc = weight.reshape({weight.size(0), -1}).contiguous();
    EXEC_NPU_CMD(aclnnEfficientnetMbConvCustom, xc, wc, scale, shift, kernel_size, stride, padding, result);
    return result;
}

// Whole MBConv block: 1x1 expand (+BN+ReLU6) -> fused depthwise stage (custom) -> 1x1 project (+BN)
// -> optional residual. The pointwise convs are plain GEMMs and stay on the library path.
at::Tensor mbconv_forward(const at::Tensor& x,
                          const at::Tensor& expand_w, const at::Tensor& bn0_w, const at::Tensor& bn0_b,
                          const at::Tensor& bn0_rm, const at::Tensor& bn0_rv,
                          const at::Tensor& dw_w, const at::Tensor& bn1_w, const at::Tensor& bn1_b,
                          const at::Tensor& bn1_rm, const at::Tensor& bn1_rv,
                          const at::Tensor& proj_w, const at::Tensor& bn2_w, const at::Tensor& bn2_b,
                          const at::Tensor& bn2_rm, const at::Tensor& bn2_rv,
                          int64_t kernel_size, int64_t stride, double eps, bool use_residual)
{
    at::Tensor h = x;
    if (expand_w.defined() && expand_w.numel() > 0) {
        auto bn0 = fold_bn(bn0_w, bn0_b, bn0_rm, bn0_rv, eps);
        h = at::conv2d(h, expand_w);
        h = h * bn0.first.view({1, -1, 1, 1}) + bn0.second.view({1, -1, 1, 1});
        h = at::clamp(h, 0.0, 6.0);
    }

    auto bn1 = fold_bn(bn1_w, bn1_b, bn1_rm, bn1_rv, eps);
    h = efficientnet_mb_conv_custom_impl_npu(h, dw_w, bn1.first, bn1.second,
                                             kernel_size, stride, (kernel_size - 1) / 2);

    auto bn2 = fold_bn(bn2_w, bn2_b, bn2_rm, bn2_rv, eps);
    h = at::conv2d(h, proj_w);
    h = h * bn2.first.view({1, -1, 1, 1}) + bn2.second.view({1, -1, 1, 1});

    if (use_residual) {
        h = h + x;
    }
    return h;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("efficientnet_mb_conv_custom", &efficientnet_mb_conv_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("efficientnet_mb_conv_custom", &efficientnet_mb_conv_custom_impl_npu,
          "depthwise conv + folded BN + ReLU6 (MBConv middle stage)");
    m.def("mbconv_forward", &mbconv_forward, "EfficientNet MBConv block forward");
}
