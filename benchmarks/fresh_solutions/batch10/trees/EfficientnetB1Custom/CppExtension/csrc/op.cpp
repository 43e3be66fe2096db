#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>
#include <limits>

// ---------------------------------------------------------------------------
// Fused BN + clip on the NPU.  BatchNorm is folded on the host side into a
// per-channel affine transform (scale, shift); the custom kernel then applies
// it together with the activation clamp in a single pass over the activations.
// ---------------------------------------------------------------------------
static at::Tensor bn_clip_npu(const at::Tensor& x, const at::Tensor& scale, const at::Tensor& shift,
                              double clipMin, double clipMax)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnEfficientnetB1Custom, xc, scale, shift, clipMin, clipMax, y);
    return y;
}

// Folds BN into (scale, shift).  In training mode the statistics come from the
// current batch (biased variance, as nn.BatchNorm2d uses for normalisation);
// otherwise the running statistics are used.
static at::Tensor bn_act(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta,
                         const at::Tensor& runMean, const at::Tensor& runVar, bool training,
                         double clipMin, double clipMax)
{
    const double eps = 1e-5;
    at::Tensor mean, var;
    if (training) {
        auto vm = at::var_mean(x, {0, 2, 3}, /*unbiased=*/false, /*keepdim=*/false);
        var = std::get<0>(vm);
        mean = std::get<1>(vm);
    } else {
        mean = runMean;
        var = runVar;
    }
    at::Tensor scale = (gamma / at::sqrt(var + eps)).contiguous();
    at::Tensor shift = (beta - mean * scale).contiguous();
    return bn_clip_npu(x, scale, shift, clipMin, clipMax);
}

// params layout (each BN contributes weight, bias, running_mean, running_var):
//   conv1.w, bn1(4)
//   7 x MBConv: [w_expand, bn(4), w_dw, bn(4), w_project, bn(4)]  -> 15 tensors each
//   conv2.w, bn2(4), fc.w, fc.b
at::Tensor efficientnet_b1_custom_impl_npu(const at::Tensor& x, const std::vector<at::Tensor>& params, bool training)
{
    const double kRelu6Max = 6.0;
    const double kInf = std::numeric_limits<float>::max();
    static const int64_t kStrides[7] = {1, 2, 2, 2, 1, 2, 1};

    size_t p = 0;
    auto next = [&]() -> const at::Tensor& { return params[p++]; };

    // stem: conv3x3 s2 -> BN -> ReLU
    at::Tensor h = at::conv2d(x, next(), {}, {2, 2}, {1, 1});
    {
        const at::Tensor& g = next(); const at::Tensor& b = next();
        const at::Tensor& rm = next(); const at::Tensor& rv = next();
        h = bn_act(h, g, b, rm, rv, training, 0.0, kInf);
    }

    for (int blk = 0; blk < 7; ++blk) {
        // 1x1 expansion
        h = at::conv2d(h, next());
        {
            const at::Tensor& g = next(); const at::Tensor& b = next();
            const at::Tensor& rm = next(); const at::Tensor& rv = next();
            h = bn_act(h, g, b, rm, rv, training, 0.0, kRelu6Max);
        }
        // 3x3 depthwise
        const at::Tensor& wdw = next();
        int64_t hidden = wdw.size(0);
        h = at::conv2d(h, wdw, {}, {kStrides[blk], kStrides[blk]}, {1, 1}, {1, 1}, hidden);
        {
            const at::Tensor& g = next(); const at::Tensor& b = next();
            const at::Tensor& rm = next(); const at::Tensor& rv = next();
            h = bn_act(h, g, b, rm, rv, training, 0.0, kRelu6Max);
        }
        // 1x1 projection, linear bottleneck (no activation)
        h = at::conv2d(h, next());
        {
            const at::Tensor& g = next(); const at::Tensor& b = next();
            const at::Tensor& rm = next(); const at::Tensor& rv = next();
            h = bn_act(h, g, b, rm, rv, training, -kInf, kInf);
        }
    }

    // head: conv1x1 -> BN -> ReLU -> global pool -> fc
    h = at::conv2d(h, next());
    {
        const at::Tensor& g = next(); const at::Tensor& b = next();
        const at::Tensor& rm = next(); const at::Tensor& rv = next();
        h = bn_act(h, g, b, rm, rv, training, 0.0, kInf);
    }
    h = at::mean(h, {2, 3});
    const at::Tensor& fcW = next();
    const at::Tensor& fcB = next();
    return at::addmm(fcB, h, fcW.t());
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("efficientnet_b1_custom", &efficientnet_b1_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("efficientnet_b1_custom", &efficientnet_b1_custom_impl_npu, "EfficientNet-B1 forward with fused BN+clip kernels");
    m.def("bn_clip", &bn_clip_npu, "y = clamp(x * scale[c] + shift[c], lo, hi)");
}
