project_json_src='''
[
    {
        "op": "Deconv2dUnitStrideCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x_padded",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float", "float16"]
            },
            {
                "name": "w_flipped",
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
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dUnitStrideTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inCh);
  TILING_DATA_FIELD_DEF(uint32_t, outCh);
  TILING_DATA_FIELD_DEF(uint32_t, hp);
  TILING_DATA_FIELD_DEF(uint32_t, wp);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutAligned);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, ocPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
  TILING_DATA_FIELD_DEF(uint32_t, ocGroups);
  TILING_DATA_FIELD_DEF(uint32_t, unitsBase);
  TILING_DATA_FIELD_DEF(uint32_t, unitsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dUnitStrideCustom, Deconv2dUnitStrideTilingData)
}
"""

host_operator_src="""
#include "deconv2d_unit_stride_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t UB_BUDGET = 160 * 1024;
constexpr uint32_t BUFS = 2;

// Picks output-channel group and output-row tile so that the group's weights,
// the double-buffered accumulators and the double-buffered input rows fit in UB.
static void ChooseBlocking(uint32_t oc, uint32_t ic, uint32_t kArea, uint32_t woutA, uint32_t hout,
                           uint32_t elem, uint32_t& ocg, uint32_t& rows)
{
    ocg = oc < 8 ? oc : 8;
    rows = 4;
    while (true) {
        uint64_t wBytes = (uint64_t)ocg * ic * kArea * elem;
        uint64_t accBytes = (uint64_t)BUFS * ocg * rows * woutA * elem;
        uint64_t inBytes = (uint64_t)BUFS * rows * woutA * elem;
        if (wBytes + accBytes + inBytes <= UB_BUDGET) {
            break;
        }
        if (rows > 1) {
            rows--;
        } else if (ocg > 1) {
            ocg--;
        } else {
            break;
        }
    }
    if (rows > hout) {
        rows = hout;
    }
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Deconv2dUnitStrideTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();
    uint32_t n = xs.GetDim(0), ic = xs.GetDim(1), hp = xs.GetDim(2), wp = xs.GetDim(3);
    uint32_t oc = ws.GetDim(0), kh = ws.GetDim(2), kw = ws.GetDim(3);
    if (hp < kh || wp < kw) {
        return ge::GRAPH_FAILED;
    }
    uint32_t hout = hp - kh + 1;
    uint32_t wout = wp - kw + 1;

    bool isHalf = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    uint32_t elem = isHalf ? 2 : 4;
    uint32_t align = 32 / elem;
    uint32_t woutA = (wout + align - 1) / align * align;

    uint32_t ocg = 1, rows = 1;
    ChooseBlocking(oc, ic, kh * kw, woutA, hout, elem, ocg, rows);
    uint32_t rowTiles = (hout + rows - 1) / rows;
    uint32_t ocGroups = (oc + ocg - 1) / ocg;
    uint32_t units = ocGroups * n * rowTiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > units) {
        cores = units;
    }
    if (cores == 0) {
        cores = 1;
    }

    td.set_batch(n);
    td.set_inCh(ic);
    td.set_outCh(oc);
    td.set_hp(hp);
    td.set_wp(wp);
    td.set_kh(kh);
    td.set_kw(kw);
    td.set_hout(hout);
    td.set_wout(wout);
    td.set_woutAligned(woutA);
    td.set_rowsPerTile(rows);
    td.set_ocPerGroup(ocg);
    td.set_rowTiles(rowTiles);
    td.set_ocGroups(ocGroups);
    td.set_unitsBase(units / cores);
    td.set_unitsExtra(units % cores);

    context->SetTilingKey(isHalf ? 2 : 1);
    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(0));
    ys->SetDim(2, xs->GetDim(2) - ws->GetDim(2) + 1);
    ys->SetDim(3, xs->GetDim(3) - ws->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class Deconv2dUnitStrideCustom : public OpDef {
public:
    explicit Deconv2dUnitStrideCustom(const char* name) : OpDef(name)
    {
        this->Input("x_padded").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("w_flipped").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Deconv2dUnitStrideCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <HardEvent EV>
__aicore__ inline void WaitEvent()
{
    event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(EV));
    SetFlag<EV>(id);
    WaitFlag<EV>(id);
}

// Decodes a linear work index into (oc group, batch, output-row tile); the oc group is
// outermost so that consecutive units on one core reuse the weights already in UB.
struct WorkUnit {
    uint32_t group;
    uint32_t batch;
    uint32_t rowTile;
    __aicore__ inline void Decode(uint32_t u, uint32_t batches, uint32_t rowTiles)
    {
        rowTile = u % rowTiles;
        uint32_t r = u / rowTiles;
        batch = r % batches;
        group = r / batches;
    }
};

// Stride-1 transposed conv == valid correlation of the (K-1-p)-padded input with the
// spatially flipped, IO-swapped kernel. Each window shift is fetched straight from GM
// (unaligned source, aligned UB destination) so all vector operands stay 32 B aligned.
template <typename T>
class Deconv2dUnitStride {
public:
    __aicore__ inline Deconv2dUnitStride() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const Deconv2dUnitStrideTilingData& td)
    {
        t_ = td;
        uint32_t idx = GetBlockIdx();
        unitCount_ = td.unitsBase + (idx < td.unitsExtra ? 1 : 0);
        unitBegin_ = idx * td.unitsBase + (idx < td.unitsExtra ? idx : td.unitsExtra);
        kArea_ = td.kh * td.kw;
        groupWeights_ = td.ocPerGroup * td.inCh * kArea_;
        tileElems_ = td.rowsPerTile * td.woutAligned;

        xGm_.SetGlobalBuffer((__gm__ T*)x);
        wGm_.SetGlobalBuffer((__gm__ T*)w);
        yGm_.SetGlobalBuffer((__gm__ T*)y);
        pipe_.InitBuffer(rowQ_, BUFFER_NUM, tileElems_ * sizeof(T));
        pipe_.InitBuffer(accQ_, BUFFER_NUM, td.ocPerGroup * tileElems_ * sizeof(T));
        pipe_.InitBuffer(wBuf_, (groupWeights_ * sizeof(T) + 31) / 32 * 32);
    }

    __aicore__ inline void Process()
    {
        uint32_t loadedGroup = 0xFFFFFFFFu;
        WorkUnit wu;
        for (uint32_t i = 0; i < unitCount_; ++i) {
            wu.Decode(unitBegin_ + i, t_.batch, t_.rowTiles);
            if (wu.group != loadedGroup) {
                LoadGroupWeights(wu.group);
                loadedGroup = wu.group;
            }
            RunUnit(wu);
        }
    }

private:
    __aicore__ inline uint32_t GroupSize(uint32_t g) const
    {
        uint32_t first = g * t_.ocPerGroup;
        return (t_.outCh - first) < t_.ocPerGroup ? (t_.outCh - first) : t_.ocPerGroup;
    }

    __aicore__ inline void LoadGroupWeights(uint32_t g)
    {
        WaitEvent<HardEvent::S_MTE2>();
        LocalTensor<T> wl = wBuf_.Get<T>();
        uint32_t cnt = GroupSize(g) * t_.inCh * kArea_;
        DataCopyExtParams cp{1, static_cast<uint32_t>(cnt * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(wl, wGm_[(uint64_t)g * groupWeights_], cp, pad);
        WaitEvent<HardEvent::MTE2_S>();
    }

    // rows [oy0, oy0 + rows) of input channel ci, shifted by (a, b)
    __aicore__ inline void FetchShifted(uint32_t n, uint32_t ci, uint32_t oy0, uint32_t rows, uint32_t a, uint32_t b)
    {
        LocalTensor<T> buf = rowQ_.AllocTensor<T>();
        uint64_t src = (((uint64_t)n * t_.inCh + ci) * t_.hp + oy0 + a) * t_.wp + b;
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.wout * sizeof(T)),
                             static_cast<uint32_t>((t_.wp - t_.wout) * sizeof(T)), 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(buf, xGm_[src], cp, pad);
        rowQ_.EnQue(buf);
    }

    __aicore__ inline void RunUnit(const WorkUnit& wu)
    {
        uint32_t oy0 = wu.rowTile * t_.rowsPerTile;
        uint32_t rows = (t_.hout - oy0) < t_.rowsPerTile ? (t_.hout - oy0) : t_.rowsPerTile;
        uint32_t ocn = GroupSize(wu.group);
        uint32_t span = rows * t_.woutAligned;

        LocalTensor<T> acc = accQ_.AllocTensor<T>();
        Duplicate(acc, static_cast<T>(0), ocn * tileElems_);
        LocalTensor<T> wl = wBuf_.Get<T>();

        for (uint32_t ci = 0; ci < t_.inCh; ++ci) {
            for (uint32_t a = 0; a < t_.kh; ++a) {
                for (uint32_t b = 0; b < t_.kw; ++b) {
                    FetchShifted(wu.batch, ci, oy0, rows, a, b);
                    LocalTensor<T> win = rowQ_.DeQue<T>();
                    uint32_t tap = (ci * t_.kh + a) * t_.kw + b;
                    for (uint32_t o = 0; o < ocn; ++o) {
                        T coef = wl.GetValue(o * t_.inCh * kArea_ + tap);
                        Axpy(acc[o * tileElems_], win, coef, span);
                    }
                    rowQ_.FreeTensor(win);
                }
            }
        }
        accQ_.EnQue(acc);
        StoreUnit(wu, oy0, rows, ocn);
    }

    __aicore__ inline void StoreUnit(const WorkUnit& wu, uint32_t oy0, uint32_t rows, uint32_t ocn)
    {
        LocalTensor<T> acc = accQ_.DeQue<T>();
        DataCopyExtParams cp{static_cast<uint16_t>(rows), static_cast<uint32_t>(t_.wout * sizeof(T)), 0, 0, 0};
        for (uint32_t o = 0; o < ocn; ++o) {
            uint32_t oc = wu.group * t_.ocPerGroup + o;
            uint64_t dst = (((uint64_t)wu.batch * t_.outCh + oc) * t_.hout + oy0) * t_.wout;
            DataCopyPad(yGm_[dst], acc[o * tileElems_], cp);
        }
        accQ_.FreeTensor(acc);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> rowQ_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> accQ_;
    TBuf<QuePosition::VECCALC> wBuf_;
    GlobalTensor<T> xGm_, wGm_, yGm_;
    Deconv2dUnitStrideTilingData t_;
    uint32_t unitCount_ = 0, unitBegin_ = 0, kArea_ = 0, groupWeights_ = 0, tileElems_ = 0;
};

extern "C" __global__ __aicore__ void deconv2d_unit_stride_custom(GM_ADDR x_padded, GM_ADDR w_flipped, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    if (TILING_KEY_IS(1)) {
        Deconv2dUnitStride<float> op;
        op.Init(x_padded, w_flipped, y, td);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        Deconv2dUnitStride<half> op;
        op.Init(x_padded, w_flipped, y, td);
        op.Process();
    }
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// weight: (C_in, C_out, KH, KW) as stored by nn.ConvTranspose2d (groups == 1).
at::Tensor deconv2d_unit_stride_impl_npu(const at::Tensor& x, const at::Tensor& weight, int64_t padding,
                                         int64_t output_padding)
{
    TORCH_CHECK(x.dim() == 4 && weight.dim() == 4, "expected NCHW input and 4-D weight");
    const int64_t kh = weight.size(2);
    const int64_t kw = weight.size(3);
    TORCH_CHECK(padding <= kh - 1 && padding <= kw - 1, "padding larger than kernel - 1 is not supported");
    const int64_t ph = kh - 1 - padding;
    const int64_t pw = kw - 1 - padding;
    // output_padding extends the bottom/right border only
    at::Tensor xp = at::constant_pad_nd(x, {pw, pw + output_padding, ph, ph + output_padding}, 0).contiguous();
    at::Tensor wf = weight.flip({2, 3}).permute({1, 0, 2, 3}).contiguous().to(x.scalar_type());

    const int64_t hout = xp.size(2) - kh + 1;
    const int64_t wout = xp.size(3) - kw + 1;
    at::Tensor y = at::empty({x.size(0), wf.size(0), hout, wout}, x.options());
    EXEC_NPU_CMD(aclnnDeconv2dUnitStrideCustom, xp, wf, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("deconv2d_unit_stride_custom", &deconv2d_unit_stride_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("deconv2d_unit_stride_custom", &deconv2d_unit_stride_impl_npu,
          "stride-1 ConvTranspose2d (no bias) via shifted-window accumulation",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("padding") = 0,
          pybind11::arg("output_padding") = 0);
}
"""
