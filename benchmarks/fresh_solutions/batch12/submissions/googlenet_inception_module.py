project_json_src='''
[
    {
        "op": "PlanarWindowMaxCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlanarWindowMaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);      // width rounded up to 32B in UB
  TILING_DATA_FIELD_DEF(uint32_t, stripeRows);    // output rows per UB pass
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlanarWindowMaxCustom, PlanarWindowMaxTilingData)
}
"""

host_operator_src="""
#include "planar_window_max_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
// 3x3 / stride 1 / pad 1 max pooling over NCHW.
// UB per stripe (rows = stripe + 2 halo): 3 shifted copies x 2 buffers, 1 row-max scratch,
// 2 output buffers of stripe rows.
uint32_t StripeRows(uint64_t ubBytes, uint32_t pitchBytes, uint32_t height)
{
    uint64_t usable = ubBytes - 16 * 1024;
    // 6*(r+2) + (r+2) + 2*r = 9r + 14 rows
    uint64_t r = usable / pitchBytes;
    r = r > 14 ? (r - 14) / 9 : 1;
    if (r == 0) {
        r = 1;
    }
    return static_cast<uint32_t>(r < height ? r : height);
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t cores = plat.GetCoreNumAiv();

    const gert::Shape& s = context->GetInputShape(0)->GetStorageShape();
    if (s.GetDimNum() != 4) {
        return ge::GRAPH_FAILED;
    }
    auto dt = context->GetInputDesc(0)->GetDataType();
    uint32_t esz = dt == ge::DT_FLOAT16 ? 2 : 4;
    uint32_t planes = s.GetDim(0) * s.GetDim(1);
    uint32_t h = s.GetDim(2);
    uint32_t w = s.GetDim(3);
    uint32_t perBlock = 32 / esz;
    uint32_t pitch = (w + perBlock - 1) / perBlock * perBlock;

    PlanarWindowMaxTilingData td;
    td.set_planes(planes);
    td.set_height(h);
    td.set_width(w);
    td.set_rowPitch(pitch);
    td.set_stripeRows(StripeRows(ub, pitch * esz, h));
    uint32_t per = (planes + cores - 1) / cores;
    td.set_planesPerCore(per);

    context->SetBlockDim((planes + per - 1) / per);
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class PlanarWindowMaxCustom : public OpDef {
public:
    explicit PlanarWindowMaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PlanarWindowMaxCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T> struct Lowest;
template <> struct Lowest<float> { __aicore__ static inline float Get() { return -3.402823466e+38f; } };
template <> struct Lowest<half> { __aicore__ static inline half Get() { return half(-65504.0f); } };

// Max is idempotent, so a missing halo row can be replaced by a copy of the edge row
// instead of -inf; the column halo is produced by DataCopyPad padding with the lowest value.
template <typename T>
class PlanarWindowMaxKernel {
public:
    __aicore__ inline PlanarWindowMaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const PlanarWindowMaxTilingData& td)
    {
        H = td.height;
        W = td.width;
        pitch = td.rowPitch;
        stripe = td.stripeRows;
        uint32_t first = GetBlockIdx() * td.planesPerCore;
        uint32_t last = first + td.planesPerCore;
        last = last < td.planes ? last : td.planes;
        planeBegin = first;
        planeCount = last > first ? last - first : 0;

        uint64_t planeSize = (uint64_t)H * W;
        xGm.SetGlobalBuffer((__gm__ T*)x, planeSize * td.planes);
        yGm.SetGlobalBuffer((__gm__ T*)y, planeSize * td.planes);

        uint32_t haloBytes = (stripe + 2) * pitch * sizeof(T);
        pipe.InitBuffer(leftQ, BUFFER_NUM, haloBytes);
        pipe.InitBuffer(midQ, BUFFER_NUM, haloBytes);
        pipe.InitBuffer(rightQ, BUFFER_NUM, haloBytes);
        pipe.InitBuffer(outQ, BUFFER_NUM, stripe * pitch * sizeof(T));
        pipe.InitBuffer(rowMaxBuf, haloBytes);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t p = 0; p < planeCount; ++p) {
            uint64_t base = (uint64_t)(planeBegin + p) * H * W;
            for (uint32_t r0 = 0; r0 < H; r0 += stripe) {
                uint32_t rows = (H - r0) < stripe ? (H - r0) : stripe;
                uint32_t lo = r0 == 0 ? 0 : r0 - 1;
                uint32_t hi = (r0 + rows + 1) > H ? H : r0 + rows + 1;
                // slot 0 of the UB stripe is row r0-1; shift by one if that row is outside the plane
                uint32_t slot = (r0 == 0) ? 1 : 0;
                LoadShifted(base, lo, hi - lo, slot);
                Combine(rows, r0 == 0, (r0 + rows) == H);
                Store(base, r0, rows);
            }
        }
    }

private:
    __aicore__ inline void LoadShifted(uint64_t base, uint32_t lo, uint32_t cnt, uint32_t slot)
    {
        LocalTensor<T> l = leftQ.AllocTensor<T>();
        LocalTensor<T> c = midQ.AllocTensor<T>();
        LocalTensor<T> r = rightQ.AllocTensor<T>();
        uint32_t pitchGap = (pitch - ((W + 32 / sizeof(T) - 1) / (32 / sizeof(T))) * (32 / sizeof(T)))
                            * sizeof(T) / 32;
        uint64_t rowStart = base + (uint64_t)lo * W;
        uint32_t dst = slot * pitch;

        DataCopyExtParams full{static_cast<uint16_t>(cnt), static_cast<uint32_t>(W * sizeof(T)), 0, pitchGap, 0};
        DataCopyPadExtParams<T> noPad{false, 0, 0, 0};
        DataCopyPad(c[dst], xGm[rowStart], full, noPad);

        if (W > 1) {
            // left neighbours: [pad, x0 .. x(W-2)]; right neighbours: [x1 .. x(W-1), pad]
            DataCopyExtParams part{static_cast<uint16_t>(cnt), static_cast<uint32_t>((W - 1) * sizeof(T)),
                                   static_cast<uint32_t>(sizeof(T)), pitchGap, 0};
            DataCopyPadExtParams<T> padL{true, 1, 0, Lowest<T>::Get()};
            DataCopyPadExtParams<T> padR{true, 0, 1, Lowest<T>::Get()};
            DataCopyPad(l[dst], xGm[rowStart], part, padL);
            DataCopyPad(r[dst], xGm[rowStart + 1], part, padR);
        } else {
            DataCopyPad(l[dst], xGm[rowStart], full, noPad);
            DataCopyPad(r[dst], xGm[rowStart], full, noPad);
        }
        leftQ.EnQue(l);
        midQ.EnQue(c);
        rightQ.EnQue(r);
        loadedRows = cnt;
        loadedSlot = slot;
    }

    __aicore__ inline void Combine(uint32_t rows, bool topEdge, bool bottomEdge)
    {
        LocalTensor<T> l = leftQ.DeQue<T>();
        LocalTensor<T> c = midQ.DeQue<T>();
        LocalTensor<T> r = rightQ.DeQue<T>();
        LocalTensor<T> hm = rowMaxBuf.Get<T>();
        LocalTensor<T> o = outQ.AllocTensor<T>();

        uint32_t off = loadedSlot * pitch;
        uint32_t n = loadedRows * pitch;
        Max(hm[off], l[off], c[off], n);
        Max(hm[off], hm[off], r[off], n);
        leftQ.FreeTensor(l);
        midQ.FreeTensor(c);
        rightQ.FreeTensor(r);

        // replicate edge rows into the missing halo slots
        if (topEdge) {
            Adds(hm, hm[pitch], T(0), pitch);
        }
        if (bottomEdge) {
            Adds(hm[(rows + 1) * pitch], hm[rows * pitch], T(0), pitch);
        }
        PipeBarrier<PIPE_V>();
        uint32_t m = rows * pitch;
        Max(o, hm, hm[pitch], m);
        Max(o, o, hm[2 * pitch], m);
        outQ.EnQue(o);
    }

    __aicore__ inline void Store(uint64_t base, uint32_t r0, uint32_t rows)
    {
        LocalTensor<T> o = outQ.DeQue<T>();
        uint32_t pitchGap = (pitch - ((W + 32 / sizeof(T) - 1) / (32 / sizeof(T))) * (32 / sizeof(T)))
                            * sizeof(T) / 32;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(W * sizeof(T)), pitchGap, 0, 0};
        DataCopyPad(yGm[base + (uint64_t)r0 * W], o, cp);
        outQ.FreeTensor(o);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> leftQ, midQ, rightQ;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> rowMaxBuf;
    GlobalTensor<T> xGm, yGm;
    uint32_t H = 0, W = 0, pitch = 0, stripe = 0;
    uint32_t planeBegin = 0, planeCount = 0;
    uint32_t loadedRows = 0, loadedSlot = 0;
};

extern "C" __global__ __aicore__ void planar_window_max_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        PlanarWindowMaxKernel<float> op;
        op.Init(x, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        PlanarWindowMaxKernel<half> op;
        op.Init(x, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>
#include <vector>

// 3x3, stride 1, pad 1 max pooling (custom kernel)
at::Tensor planar_window_max_impl_npu(const at::Tensor& x)
{
    TORCH_CHECK(x.dim() == 4, "expected NCHW input");
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnPlanarWindowMaxCustom, xc, y);
    return y;
}

// Inception block. The three 1x1 convolutions that read x (1x1 branch, 3x3 reduce, 5x5 reduce)
// are fused into one convolution with stacked filters, then split along channels.
at::Tensor inception_block_impl_npu(const at::Tensor& x,
                                    const at::Tensor& w1, const at::Tensor& b1,
                                    const at::Tensor& w3r, const at::Tensor& b3r,
                                    const at::Tensor& w3, const at::Tensor& b3,
                                    const at::Tensor& w5r, const at::Tensor& b5r,
                                    const at::Tensor& w5, const at::Tensor& b5,
                                    const at::Tensor& wp, const at::Tensor& bp)
{
    int64_t c1 = w1.size(0);
    int64_t c3r = w3r.size(0);
    int64_t c5r = w5r.size(0);
    at::Tensor wStack = at::cat({w1, w3r, w5r}, 0);
    at::Tensor bStack = at::cat({b1, b3r, b5r}, 0);
    at::Tensor stacked = at::conv2d(x, wStack, bStack);
    std::vector<at::Tensor> parts = stacked.split_with_sizes({c1, c3r, c5r}, 1);

    at::Tensor br1 = parts[0];
    at::Tensor br3 = at::conv2d(parts[1], w3, b3, {1, 1}, {1, 1});
    at::Tensor br5 = at::conv2d(parts[2], w5, b5, {1, 1}, {2, 2});
    at::Tensor pooled = planar_window_max_impl_npu(x);
    at::Tensor brp = at::conv2d(pooled, wp, bp);
    return at::cat({br1, br3, br5, brp}, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("planar_window_max_custom", &planar_window_max_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("planar_window_max_custom", &planar_window_max_impl_npu, "3x3/s1/p1 max pool");
    m.def("inception_block", &inception_block_impl_npu, "GoogLeNet inception block");
}
"""
