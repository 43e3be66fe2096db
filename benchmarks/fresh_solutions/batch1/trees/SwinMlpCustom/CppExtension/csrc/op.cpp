#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// Swin-MLP (embed 96, depths [2,2,6,2], heads [3,6,12,24], window 7, img 224, patch 4).
// All LayerNorms run through the custom AscendC kernel (aclnnSwinMlpCustom);
// convolutions / linears / GELU use the stock NPU ops.
//
// `params` follows Model.parameters() order:
//   patch_embed.proj.{weight,bias}, patch_embed.norm.{weight,bias},
//   per block: norm1.{w,b}, spatial_mlp.{w,b}, norm2.{w,b}, mlp.fc1.{w,b}, mlp.fc2.{w,b}
//   per downsample: reduction.weight, norm.{w,b}
//   norm.{weight,bias}, head.{weight,bias}

namespace {
constexpr int64_t kPatch = 4;
constexpr int64_t kWindow = 7;
constexpr int64_t kDepths[4] = {2, 2, 6, 2};
constexpr int64_t kHeads[4] = {3, 6, 12, 24};
constexpr double kEps = 1e-5;

at::Tensor layer_norm_npu(const at::Tensor& x, const at::Tensor& gamma, const at::Tensor& beta)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    double eps = kEps;
    EXEC_NPU_CMD(aclnnSwinMlpCustom, xc, gamma, beta, eps, y);
    return y;
}

struct ParamReader {
    const std::vector<at::Tensor>& p;
    size_t idx = 0;
    explicit ParamReader(const std::vector<at::Tensor>& v) : p(v) {}
    const at::Tensor& next()
    {
        TORCH_CHECK(idx < p.size(), "swin_mlp_custom: not enough parameters");
        return p[idx++];
    }
};

at::Tensor swin_block(const at::Tensor& x, ParamReader& rd, int64_t H, int64_t W, int64_t heads, int64_t shift)
{
    const at::Tensor& n1w = rd.next();
    const at::Tensor& n1b = rd.next();
    const at::Tensor& smw = rd.next();
    const at::Tensor& smb = rd.next();
    const at::Tensor& n2w = rd.next();
    const at::Tensor& n2b = rd.next();
    const at::Tensor& f1w = rd.next();
    const at::Tensor& f1b = rd.next();
    const at::Tensor& f2w = rd.next();
    const at::Tensor& f2b = rd.next();

    int64_t B = x.size(0);
    int64_t C = x.size(2);
    int64_t ws = kWindow;
    if (std::min(H, W) <= ws) {
        shift = 0;
        ws = std::min(H, W);
    }

    at::Tensor h = layer_norm_npu(x, n1w, n1b).view({B, H, W, C});
    int64_t pl = ws - shift, pr = shift, pt = ws - shift, pb = shift;
    if (shift > 0) {
        h = at::constant_pad_nd(h, {0, 0, pl, pr, pt, pb}, 0);
    }
    int64_t Hp = h.size(1), Wp = h.size(2);

    // window partition -> [nW*B, ws*ws, C]
    at::Tensor win = h.view({B, Hp / ws, ws, Wp / ws, ws, C}).permute({0, 1, 3, 2, 4, 5}).reshape({-1, ws * ws, C});
    int64_t hd = C / heads;
    at::Tensor wh = win.view({-1, ws * ws, heads, hd}).transpose(1, 2).reshape({-1, heads * ws * ws, hd});
    // multi-head spatial MLP == grouped 1x1 conv1d
    at::Tensor sm = at::conv1d(wh, smw, smb, {1}, {0}, {1}, heads);
    sm = sm.view({-1, heads, ws * ws, hd}).transpose(1, 2).reshape({-1, ws, ws, C});
    // window reverse
    at::Tensor sx = sm.view({B, Hp / ws, Wp / ws, ws, ws, C}).permute({0, 1, 3, 2, 4, 5}).reshape({B, Hp, Wp, C});
    if (shift > 0) {
        sx = sx.slice(1, pt, Hp - pb).slice(2, pl, Wp - pr);
    }
    at::Tensor out = x + sx.contiguous().view({B, H * W, C});

    at::Tensor m = layer_norm_npu(out, n2w, n2b);
    m = at::linear(m, f1w, f1b);
    m = at::gelu(m);
    m = at::linear(m, f2w, f2b);
    return out + m;
}

at::Tensor patch_merging(const at::Tensor& x, ParamReader& rd, int64_t H, int64_t W)
{
    const at::Tensor& red = rd.next();
    const at::Tensor& nw = rd.next();
    const at::Tensor& nb = rd.next();
    int64_t B = x.size(0), C = x.size(2);
    at::Tensor v = x.view({B, H, W, C});
    using at::indexing::Slice;
    using at::indexing::None;
    at::Tensor x0 = v.index({Slice(), Slice(0, None, 2), Slice(0, None, 2), Slice()});
    at::Tensor x1 = v.index({Slice(), Slice(1, None, 2), Slice(0, None, 2), Slice()});
    at::Tensor x2 = v.index({Slice(), Slice(0, None, 2), Slice(1, None, 2), Slice()});
    at::Tensor x3 = v.index({Slice(), Slice(1, None, 2), Slice(1, None, 2), Slice()});
    at::Tensor cat = at::cat({x0, x1, x2, x3}, -1).view({B, -1, 4 * C});
    return at::linear(layer_norm_npu(cat, nw, nb), red);
}
}  // namespace

at::Tensor swin_mlp_custom_impl_npu(const at::Tensor& input, const std::vector<at::Tensor>& params)
{
    ParamReader rd(params);

    // patch embedding: conv(k=4, s=4) -> [B, L, C] -> norm
    const at::Tensor& pw = rd.next();
    const at::Tensor& pbias = rd.next();
    at::Tensor x = at::conv2d(input, pw, pbias, {kPatch, kPatch});
    int64_t B = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    x = x.flatten(2).transpose(1, 2).contiguous();
    const at::Tensor& pnw = rd.next();
    const at::Tensor& pnb = rd.next();
    x = layer_norm_npu(x, pnw, pnb);

    for (int stage = 0; stage < 4; ++stage) {
        for (int64_t blk = 0; blk < kDepths[stage]; ++blk) {
            int64_t shift = (blk % 2 == 0) ? 0 : kWindow / 2;
            x = swin_block(x, rd, H, W, kHeads[stage], shift);
        }
        if (stage < 3) {
            x = patch_merging(x, rd, H, W);
            H /= 2;
            W /= 2;
            C *= 2;
        }
    }

    const at::Tensor& nw = rd.next();
    const at::Tensor& nb = rd.next();
    x = layer_norm_npu(x, nw, nb);
    x = x.mean(1);                         // AdaptiveAvgPool1d(1) over tokens
    const at::Tensor& hw = rd.next();
    const at::Tensor& hb = rd.next();
    (void)B;
    (void)C;
    return at::linear(x, hw, hb);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("swin_mlp_custom", &swin_mlp_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("swin_mlp_custom", &swin_mlp_custom_impl_npu, "Swin-MLP forward with AscendC LayerNorm");
}
