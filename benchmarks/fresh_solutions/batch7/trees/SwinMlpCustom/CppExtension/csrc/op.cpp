#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Custom LayerNorm over the last axis (AscendC kernel)
at::Tensor swin_mlp_custom_impl_npu(const at::Tensor &x, const at::Tensor &gamma, const at::Tensor &beta,
                                    double epsilon)
{
    at::Tensor xC = x.contiguous();
    at::Tensor y = at::empty_like(xC);
    float eps = static_cast<float>(epsilon);
    EXEC_NPU_CMD(aclnnSwinMlpCustom, xC, gamma, beta, eps, y);
    return y;
}

namespace {
constexpr double LN_EPS = 1e-5;

struct ParamReader {
    const std::vector<at::Tensor> &p;
    size_t pos = 0;
    explicit ParamReader(const std::vector<at::Tensor> &v) : p(v) {}
    const at::Tensor &next() { return p.at(pos++); }
};

at::Tensor ln(const at::Tensor &x, const at::Tensor &g, const at::Tensor &b)
{
    return swin_mlp_custom_impl_npu(x, g, b, LN_EPS);
}

// One SwinMLPBlock; x: (B, H*W, C)
at::Tensor swin_mlp_block(const at::Tensor &x, ParamReader &rd, int64_t H, int64_t W, int64_t nH,
                          int64_t windowSize, int64_t shiftSize)
{
    const at::Tensor &n1w = rd.next();
    const at::Tensor &n1b = rd.next();
    const at::Tensor &spW = rd.next();
    const at::Tensor &spB = rd.next();
    const at::Tensor &n2w = rd.next();
    const at::Tensor &n2b = rd.next();
    const at::Tensor &fc1w = rd.next();
    const at::Tensor &fc1b = rd.next();
    const at::Tensor &fc2w = rd.next();
    const at::Tensor &fc2b = rd.next();

    int64_t ws = windowSize;
    int64_t shift = shiftSize;
    if (std::min(H, W) <= ws) {
        shift = 0;
        ws = std::min(H, W);
    }
    const int64_t B = x.size(0);
    const int64_t C = x.size(2);
    const int64_t hd = C / nH;

    at::Tensor shortcut = x;
    at::Tensor h = ln(x, n1w, n1b).view({B, H, W, C});

    int64_t pl = ws - shift, pr = shift, pt = ws - shift, pb = shift;
    at::Tensor shifted = shift > 0 ? at::constant_pad_nd(h, {0, 0, pl, pr, pt, pb}, 0) : h;
    const int64_t Hp = shifted.size(1);
    const int64_t Wp = shifted.size(2);

    // window partition -> (nW*B, ws*ws, C)
    at::Tensor win = shifted.view({B, Hp / ws, ws, Wp / ws, ws, C})
                         .permute({0, 1, 3, 2, 4, 5})
                         .reshape({-1, ws * ws, C});
    // heads -> (nW*B, nH*ws*ws, hd) and grouped 1x1 conv == per-head spatial MLP
    at::Tensor heads = win.view({-1, ws * ws, nH, hd}).transpose(1, 2).reshape({-1, nH * ws * ws, hd});
    at::Tensor mixed = at::conv1d(heads, spW, spB, {1}, {0}, {1}, nH);
    mixed = mixed.view({-1, nH, ws * ws, hd}).transpose(1, 2).reshape({-1, ws, ws, C});

    // window reverse
    at::Tensor merged = mixed.view({B, Hp / ws, Wp / ws, ws, ws, C})
                            .permute({0, 1, 3, 2, 4, 5})
                            .reshape({B, Hp, Wp, C});
    if (shift > 0) {
        merged = merged.slice(1, pt, Hp - pb).slice(2, pl, Wp - pr).contiguous();
    }
    at::Tensor out = shortcut + merged.reshape({B, H * W, C});

    at::Tensor m = at::linear(ln(out, n2w, n2b), fc1w, fc1b);
    m = at::gelu(m);
    m = at::linear(m, fc2w, fc2b);
    return out + m;
}

at::Tensor patch_merging(const at::Tensor &x, ParamReader &rd, int64_t H, int64_t W)
{
    const at::Tensor &redW = rd.next();
    const at::Tensor &nw = rd.next();
    const at::Tensor &nb = rd.next();
    const int64_t B = x.size(0);
    const int64_t C = x.size(2);
    at::Tensor v = x.view({B, H, W, C});
    at::Tensor x0 = v.slice(1, 0, H, 2).slice(2, 0, W, 2);
    at::Tensor x1 = v.slice(1, 1, H, 2).slice(2, 0, W, 2);
    at::Tensor x2 = v.slice(1, 0, H, 2).slice(2, 1, W, 2);
    at::Tensor x3 = v.slice(1, 1, H, 2).slice(2, 1, W, 2);
    at::Tensor cat = at::cat({x0, x1, x2, x3}, -1).reshape({B, -1, 4 * C});
    return at::linear(ln(cat, nw, nb), redW);
}
} // namespace

// Whole Swin-MLP forward (default config: embed 96, depths 2-2-6-2, heads 3-6-12-24,
// window 7, patch 4). `params` is list(model.parameters()) in registration order.
at::Tensor swin_mlp_forward_npu(const at::Tensor &img, const std::vector<at::Tensor> &params)
{
    static const int64_t depths[4] = {2, 2, 6, 2};
    static const int64_t numHeads[4] = {3, 6, 12, 24};
    const int64_t windowSize = 7;
    const int64_t patch = 4;

    ParamReader rd(params);
    const at::Tensor &projW = rd.next();
    const at::Tensor &projB = rd.next();
    const at::Tensor &peNw = rd.next();
    const at::Tensor &peNb = rd.next();

    at::Tensor x = at::conv2d(img, projW, projB, {patch, patch});
    int64_t H = x.size(2);
    int64_t W = x.size(3);
    x = x.flatten(2).transpose(1, 2).contiguous();   // (B, L, C)
    x = ln(x, peNw, peNb);

    for (int stage = 0; stage < 4; ++stage) {
        for (int64_t i = 0; i < depths[stage]; ++i) {
            int64_t shift = (i % 2 == 0) ? 0 : windowSize / 2;
            x = swin_mlp_block(x, rd, H, W, numHeads[stage], windowSize, shift);
        }
        if (stage < 3) {
            x = patch_merging(x, rd, H, W);
            H /= 2;
            W /= 2;
        }
    }
    const at::Tensor &nw = rd.next();
    const at::Tensor &nb = rd.next();
    const at::Tensor &headW = rd.next();
    const at::Tensor &headB = rd.next();
    TORCH_CHECK(rd.pos == params.size(), "unused parameters in swin_mlp_forward");

    x = ln(x, nw, nb);
    x = x.mean(1);   // AdaptiveAvgPool1d(1) over tokens
    return at::linear(x, headW, headB);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swin_mlp_custom", &swin_mlp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swin_mlp_custom", &swin_mlp_custom_impl_npu, "LayerNorm over the last axis (AscendC)");
    m.def("swin_mlp_forward", &swin_mlp_forward_npu, "Swin-MLP forward using the custom LayerNorm");
}
