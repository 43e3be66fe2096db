#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <tuple>
#include <vector>

namespace {
constexpr double BN_EPS = 1e-5;

// BatchNorm with batch statistics (the module runs in training mode), folded into a
// per-channel scale and shift: y = x * scale + shift.
std::pair<at::Tensor, at::Tensor> fold_bn(const at::Tensor &x, const at::Tensor &gamma, const at::Tensor &beta)
{
    auto vm = at::var_mean(x, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
    at::Tensor var = std::get<0>(vm);
    at::Tensor mean = std::get<1>(vm);
    at::Tensor scale = gamma * at::rsqrt(var + BN_EPS);
    at::Tensor shift = beta - mean * scale;
    return {scale.contiguous(), shift.contiguous()};
}

at::Tensor bn_apply(const at::Tensor &x, const at::Tensor &gamma, const at::Tensor &beta, bool relu)
{
    auto ss = fold_bn(x, gamma, beta);
    at::Tensor y = x * ss.first.view({1, -1, 1, 1}) + ss.second.view({1, -1, 1, 1});
    return relu ? at::relu_(y) : y;
}
} // namespace

// relu(x * scale[c] + shift[c] + residual), NCHW
at::Tensor bn_residual_relu_impl_npu(const at::Tensor &x, const at::Tensor &scale, const at::Tensor &shift,
                                     const at::Tensor &residual)
{
    TORCH_CHECK(x.dim() == 4 && x.sizes() == residual.sizes(), "x and residual must be equal NCHW tensors");
    TORCH_CHECK(scale.numel() == x.size(1) && shift.numel() == x.size(1), "per-channel scale/shift expected");
    at::Tensor xc = x.contiguous();
    at::Tensor rc = residual.contiguous();
    at::Tensor sc = scale.reshape({-1}).contiguous();
    at::Tensor sh = shift.reshape({-1}).contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnBnResidualReluCustom, xc, sc, sh, rc, y);
    return y;
}

// Bottleneck block. p points at: conv1.w, bn1.w, bn1.b, conv2.w, bn2.w, bn2.b, conv3.w, bn3.w, bn3.b
// and, if has_down, downsample conv.w, downsample bn.w, downsample bn.b.
static at::Tensor bottleneck(const at::Tensor &x, const std::vector<at::Tensor> &p, size_t &i, int64_t stride,
                             bool has_down)
{
    at::Tensor out = at::conv2d(x, p[i]);
    out = bn_apply(out, p[i + 1], p[i + 2], true);
    out = at::conv2d(out, p[i + 3], {}, {stride, stride}, {1, 1});
    out = bn_apply(out, p[i + 4], p[i + 5], true);
    out = at::conv2d(out, p[i + 6]);
    auto ss = fold_bn(out, p[i + 7], p[i + 8]);
    i += 9;

    at::Tensor identity = x;
    if (has_down) {
        identity = at::conv2d(x, p[i], {}, {stride, stride});
        identity = bn_apply(identity, p[i + 1], p[i + 2], false);
        i += 3;
    }
    // bn3 + identity add + relu fused
    return bn_residual_relu_impl_npu(out, ss.first, ss.second, identity);
}

// Whole network. params in module registration order (stem conv, bn1, then every block as above,
// then fc.weight, fc.bias). `layers` = blocks per stage, e.g. {3, 4, 23, 3}.
at::Tensor resnet_bottleneck_forward(const at::Tensor &x, const std::vector<at::Tensor> &params,
                                     const std::vector<int64_t> &layers)
{
    TORCH_CHECK(layers.size() == 4, "four stages expected");
    size_t i = 0;
    at::Tensor h = at::conv2d(x, params[i], {}, {2, 2}, {3, 3});
    h = bn_apply(h, params[i + 1], params[i + 2], true);
    i += 3;
    h = at::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});

    int64_t inChannels = 64;
    const int64_t widths[4] = {64, 128, 256, 512};
    for (int s = 0; s < 4; ++s) {
        const int64_t stride = (s == 0) ? 1 : 2;
        for (int64_t b = 0; b < layers[s]; ++b) {
            const int64_t st = (b == 0) ? stride : 1;
            const bool down = (b == 0) && (st != 1 || inChannels != widths[s] * 4);
            h = bottleneck(h, params, i, st, down);
            inChannels = widths[s] * 4;
        }
    }
    h = at::adaptive_avg_pool2d(h, {1, 1});
    h = at::flatten(h, 1);
    TORCH_CHECK(i + 2 == params.size(), "parameter list does not match the layer configuration");
    return at::addmm(params[i + 1], h, params[i].t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("bn_residual_relu_custom", &bn_residual_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("bn_residual_relu_custom", &bn_residual_relu_impl_npu, "relu(x * scale + shift + residual)");
    m.def("resnet_bottleneck_forward", &resnet_bottleneck_forward, "bottleneck ResNet forward with fused block tails");
}
