project_json_src='''
[
    {
        "op": "GroupWhitenLeakyScaleCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "gamma",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "beta",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            }
        ],
        "attr": [
            {"name": "num_groups", "param_type": "required", "type": "int"},
            {"name": "eps", "param_type": "optional", "type": "float", "default_value": "1e-5"},
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"},
            {"name": "out_scale", "param_type": "optional", "type": "float", "default_value": "2.0"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupWhitenLeakyScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch rows
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // row length
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);     // channels per group
  TILING_DATA_FIELD_DEF(uint32_t, tileGroups);    // groups handled per tile (divides num_groups)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailCoreTiles);  // first tailCoreTiles cores take one extra tile
  TILING_DATA_FIELD_DEF(uint32_t, vectorPath);    // 1: repeat-strided group reduction, 0: per-group loop
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, slope);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupWhitenLeakyScaleCustom, GroupWhitenLeakyScaleTilingData)
}
"""

host_operator_src="""
#include "group_whiten_leaky_scale_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t UB_RESERVE = 8 * 1024;
constexpr uint32_t MAX_REPEAT = 255;

// bytes of UB consumed per tile element: x/y/gamma/beta queues (double buffered) + fp32 work + fp32 square
uint32_t BytesPerElem(uint32_t typeSize)
{
    return 2 * typeSize * 4 + sizeof(float) * 2 + sizeof(float) * 2;
}

uint32_t PickTileGroups(uint32_t groups, uint32_t groupSize, uint32_t ubBytes, uint32_t typeSize)
{
    uint32_t budget = (ubBytes - UB_RESERVE) / BytesPerElem(typeSize);
    uint32_t best = 1;
    for (uint32_t g = 1; g <= groups && g <= MAX_REPEAT; ++g) {
        if (groups % g == 0 && g * groupSize <= budget) {
            best = g;
        }
    }
    return best;
}
} // namespace

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xs = context->GetInputShape(0)->GetStorageShape();
    uint32_t dims = xs.GetDimNum();
    uint32_t channels = static_cast<uint32_t>(xs.GetDim(dims - 1));
    uint32_t rows = static_cast<uint32_t>(xs.GetShapeSize() / channels);

    auto attrs = context->GetAttrs();
    uint32_t groups = static_cast<uint32_t>(*attrs->GetAttrPointer<int64_t>(0));
    const float *epsPtr = attrs->GetAttrPointer<float>(1);
    const float *slopePtr = attrs->GetAttrPointer<float>(2);
    const float *scalePtr = attrs->GetAttrPointer<float>(3);
    if (groups == 0 || channels % groups != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t groupSize = channels / groups;

    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t typeSize = (dt == ge::DT_FLOAT16) ? 2 : 4;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    uint32_t coreNum = plat.GetCoreNumAiv();

    GroupWhitenLeakyScaleTilingData td;
    uint32_t tileGroups = PickTileGroups(groups, groupSize, static_cast<uint32_t>(ubSize), typeSize);
    uint32_t tilesPerRow = groups / tileGroups;
    uint32_t totalTiles = rows * tilesPerRow;
    uint32_t used = totalTiles < coreNum ? totalTiles : coreNum;
    if (used == 0) {
        used = 1;
    }
    // fp32 group of <= 64 elements spanning whole 32B blocks fits one masked repeat
    bool vec = (groupSize % 8 == 0) && (groupSize <= 64);

    td.set_rows(rows);
    td.set_channels(channels);
    td.set_groupSize(groupSize);
    td.set_tileGroups(tileGroups);
    td.set_tilesPerRow(tilesPerRow);
    td.set_tilesPerCore(totalTiles / used);
    td.set_tailCoreTiles(totalTiles % used);
    td.set_vectorPath(vec ? 1 : 0);
    td.set_eps(epsPtr ? *epsPtr : 1e-5f);
    td.set_slope(slopePtr ? *slopePtr : 0.01f);
    td.set_scale(scalePtr ? *scalePtr : 2.0f);

    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 1 : 0);
    context->SetBlockDim(used);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class GroupWhitenLeakyScaleCustom : public OpDef {
public:
    explicit GroupWhitenLeakyScaleCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("gamma").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("beta").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("num_groups").Int();
        this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);
        this->Attr("out_scale").AttrType(OPTIONAL).Float(2.0f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(GroupWhitenLeakyScaleCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t FP32_PER_BLOCK = 8;

// Per-group statistics helper: turns group sums into broadcast-ready mean / rstd blocks.
class GroupStats {
public:
    __aicore__ inline void Init(TPipe *pipe, uint32_t groups)
    {
        alignedGroups = (groups + FP32_PER_BLOCK - 1) / FP32_PER_BLOCK * FP32_PER_BLOCK;
        pipe->InitBuffer(sumBuf, alignedGroups * sizeof(float));
        pipe->InitBuffer(sqBuf, alignedGroups * sizeof(float));
        // one 32B block per group after Brcb
        pipe->InitBuffer(meanBlkBuf, alignedGroups * 32);
        pipe->InitBuffer(rstdBlkBuf, alignedGroups * 32);
    }

    // x: [groups, gs] fp32, tmp: scratch of same length
    __aicore__ inline void Compute(const LocalTensor<float> &x, const LocalTensor<float> &tmp,
                                   uint32_t groups, uint32_t gs, float eps)
    {
        LocalTensor<float> sum = sumBuf.Get<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        uint32_t len = groups * gs;
        uint16_t rep = static_cast<uint16_t>(gs / FP32_PER_BLOCK);

        Duplicate(sum, 0.0f, alignedGroups);
        Duplicate(sq, 0.0f, alignedGroups);
        PipeBarrier<PIPE_V>();
        WholeReduceSum(sum, x, gs, groups, 1, 1, rep);
        Mul(tmp, x, x, len);
        PipeBarrier<PIPE_V>();
        WholeReduceSum(sq, tmp, gs, groups, 1, 1, rep);
        PipeBarrier<PIPE_V>();

        float inv = 1.0f / static_cast<float>(gs);
        Muls(sum, sum, inv, alignedGroups);          // mean
        Muls(sq, sq, inv, alignedGroups);            // E[x^2]
        PipeBarrier<PIPE_V>();
        Mul(tmp, sum, sum, alignedGroups);
        PipeBarrier<PIPE_V>();
        Sub(sq, sq, tmp, alignedGroups);             // var
        PipeBarrier<PIPE_V>();
        Adds(sq, sq, eps, alignedGroups);
        PipeBarrier<PIPE_V>();
        Sqrt(sq, sq, alignedGroups);
        Duplicate(tmp, 1.0f, alignedGroups);
        PipeBarrier<PIPE_V>();
        Div(sq, tmp, sq, alignedGroups);             // rstd
        PipeBarrier<PIPE_V>();

        uint8_t brcbRep = static_cast<uint8_t>(alignedGroups / FP32_PER_BLOCK);
        Brcb(meanBlkBuf.Get<float>(), sum, brcbRep, {1, 8});
        Brcb(rstdBlkBuf.Get<float>(), sq, brcbRep, {1, 8});
        PipeBarrier<PIPE_V>();
    }

    // x <- (x - mean_g) * rstd_g, one repeat per group, broadcast block reused with blkStride 0
    __aicore__ inline void Apply(const LocalTensor<float> &x, uint32_t groups, uint32_t gs)
    {
        uint8_t rep = static_cast<uint8_t>(gs / FP32_PER_BLOCK);
        BinaryRepeatParams p(1, 1, 0, rep, rep, 1);
        Sub(x, x, meanBlkBuf.Get<float>(), static_cast<uint64_t>(gs), static_cast<uint8_t>(groups), p);
        PipeBarrier<PIPE_V>();
        Mul(x, x, rstdBlkBuf.Get<float>(), static_cast<uint64_t>(gs), static_cast<uint8_t>(groups), p);
        PipeBarrier<PIPE_V>();
    }

private:
    TBuf<TPosition::VECCALC> sumBuf, sqBuf, meanBlkBuf, rstdBlkBuf;
    uint32_t alignedGroups = 0;
};

template <typename T>
class GroupWhitenLeakyScale {
public:
    __aicore__ inline GroupWhitenLeakyScale() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                const GroupWhitenLeakyScaleTilingData &td)
    {
        channels = td.channels;
        gs = td.groupSize;
        tileGroups = td.tileGroups;
        tilesPerRow = td.tilesPerRow;
        tileLen = tileGroups * gs;
        vectorPath = td.vectorPath != 0;
        eps = td.eps;
        slope = td.slope;
        scale = td.scale;

        uint32_t idx = GetBlockIdx();
        myTiles = td.tilesPerCore + (idx < td.tailCoreTiles ? 1 : 0);
        firstTile = idx * td.tilesPerCore + (idx < td.tailCoreTiles ? idx : td.tailCoreTiles);

        uint64_t total = static_cast<uint64_t>(td.rows) * channels;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), total);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), total);
        gGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(gamma), channels);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(beta), channels);

        pipe.InitBuffer(xQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(affQue, BUFFER_NUM, 2 * tileLen * sizeof(T));   // gamma | beta
        pipe.InitBuffer(yQue, BUFFER_NUM, tileLen * sizeof(T));
        pipe.InitBuffer(workBuf, tileLen * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileLen * sizeof(float));
        if (vectorPath) {
            stats.Init(&pipe, tileGroups);
        }
    }

    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < myTiles; ++i) {
            uint32_t t = firstTile + i;
            uint64_t rowOff = static_cast<uint64_t>(t / tilesPerRow) * channels;
            uint32_t chOff = (t % tilesPerRow) * tileLen;
            CopyIn(rowOff + chOff, chOff);
            Compute();
            CopyOut(rowOff + chOff);
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t chOff)
    {
        LocalTensor<T> xl = xQue.AllocTensor<T>();
        LocalTensor<T> al = affQue.AllocTensor<T>();
        DataCopy(xl, xGm[gmOff], tileLen);
        DataCopy(al, gGm[chOff], tileLen);
        DataCopy(al[tileLen], bGm[chOff], tileLen);
        xQue.EnQue(xl);
        affQue.EnQue(al);
    }

    __aicore__ inline void ToFloat(const LocalTensor<float> &dst, const LocalTensor<T> &src, uint32_t n)
    {
        if constexpr (IsSameType<T, float>::value) {
            DataCopy(dst, src, n);
        } else {
            Cast(dst, src, RoundMode::CAST_NONE, n);
        }
        PipeBarrier<PIPE_V>();
    }

    // scalar fallback for group sizes that do not fit one masked repeat
    __aicore__ inline void NormalizeLoop(const LocalTensor<float> &w, const LocalTensor<float> &tmp)
    {
        float inv = 1.0f / static_cast<float>(gs);
        for (uint32_t g = 0; g < tileGroups; ++g) {
            LocalTensor<float> seg = w[g * gs];
            ReduceSum(tmp, seg, tmp[8], gs);
            Mul(tmp[16 + gs], seg, seg, gs);
            PipeBarrier<PIPE_V>();
            ReduceSum(tmp[8], tmp[16 + gs], tmp[16], gs);
            event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
            SetFlag<HardEvent::V_S>(ev);
            WaitFlag<HardEvent::V_S>(ev);
            float mean = tmp.GetValue(0) * inv;
            float var = tmp.GetValue(8) * inv - mean * mean;
            float rstd = 1.0f / sqrt(var + eps);
            event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
            SetFlag<HardEvent::S_V>(ev2);
            WaitFlag<HardEvent::S_V>(ev2);
            Adds(seg, seg, -mean, gs);
            PipeBarrier<PIPE_V>();
            Muls(seg, seg, rstd, gs);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> xl = xQue.DeQue<T>();
        LocalTensor<T> al = affQue.DeQue<T>();
        LocalTensor<T> yl = yQue.AllocTensor<T>();
        LocalTensor<float> w = workBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();

        ToFloat(w, xl, tileLen);
        if (vectorPath) {
            stats.Compute(w, tmp, tileGroups, gs, eps);
            stats.Apply(w, tileGroups, gs);
        } else {
            NormalizeLoop(w, tmp);
        }

        // affine: gamma into tmp, beta reuses tmp afterwards
        ToFloat(tmp, al, tileLen);
        Mul(w, w, tmp, tileLen);
        PipeBarrier<PIPE_V>();
        ToFloat(tmp, al[tileLen], tileLen);
        Add(w, w, tmp, tileLen);
        PipeBarrier<PIPE_V>();
        // leaky(s*v) == s*leaky(v) for s > 0, so the x + x doubling is one Muls here
        LeakyRelu(w, w, slope, tileLen);
        PipeBarrier<PIPE_V>();
        if constexpr (IsSameType<T, float>::value) {
            Muls(yl, w, scale, tileLen);
        } else {
            Muls(w, w, scale, tileLen);
            PipeBarrier<PIPE_V>();
            Cast(yl, w, RoundMode::CAST_ROUND, tileLen);
        }

        yQue.EnQue(yl);
        xQue.FreeTensor(xl);
        affQue.FreeTensor(al);
    }

    __aicore__ inline void CopyOut(uint64_t gmOff)
    {
        LocalTensor<T> yl = yQue.DeQue<T>();
        DataCopy(yGm[gmOff], yl, tileLen);
        yQue.FreeTensor(yl);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue, affQue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue;
    TBuf<TPosition::VECCALC> workBuf, tmpBuf;
    GlobalTensor<T> xGm, yGm, gGm, bGm;
    GroupStats stats;
    uint32_t channels, gs, tileGroups, tilesPerRow, tileLen;
    uint32_t myTiles, firstTile;
    bool vectorPath;
    float eps, slope, scale;
};

extern "C" __global__ __aicore__ void group_whiten_leaky_scale_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta,
                                                                      GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(0)) {
        GroupWhitenLeakyScale<float> op;
        op.Init(x, gamma, beta, y, td);
        op.Process();
    } else if (TILING_KEY_IS(1)) {
        GroupWhitenLeakyScale<half> op;
        op.Init(x, gamma, beta, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// GroupNorm(num_groups) -> LeakyReLU(slope) -> * out_scale over the last dim of x
at::Tensor group_whiten_leaky_scale_impl_npu(const at::Tensor &x, const at::Tensor &gamma, const at::Tensor &beta,
                                             int64_t num_groups, double eps, double negative_slope, double out_scale)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    float epsF = static_cast<float>(eps);
    float slopeF = static_cast<float>(negative_slope);
    float scaleF = static_cast<float>(out_scale);
    EXEC_NPU_CMD(aclnnGroupWhitenLeakyScaleCustom, xc, gamma, beta, num_groups, epsF, slopeF, scaleF, y);
    return y;
}

// fc (cube GEMM via addmm) followed by the fused group-norm / leaky / doubling kernel
at::Tensor linear_group_whiten_leaky_scale_npu(const at::Tensor &x, const at::Tensor &fc_weight,
                                               const at::Tensor &fc_bias, const at::Tensor &gamma,
                                               const at::Tensor &beta, int64_t num_groups, double eps,
                                               double negative_slope)
{
    at::Tensor h = at::addmm(fc_bias, x, fc_weight.t());
    return group_whiten_leaky_scale_impl_npu(h, gamma, beta, num_groups, eps, negative_slope, 2.0);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("group_whiten_leaky_scale_custom", &group_whiten_leaky_scale_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("group_whiten_leaky_scale_custom", &group_whiten_leaky_scale_impl_npu,
          "group norm + leaky relu + scale");
    m.def("linear_group_whiten_leaky_scale", &linear_group_whiten_leaky_scale_npu,
          "linear + group norm + leaky relu + x+x");
}
"""
