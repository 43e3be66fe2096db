project_json_src='''
[
    {
        "op": "UnitStrideDeconv1dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x_padded",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            },
            {
                "name": "weight",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND", "ND"],
                "type": ["float16", "float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UnitStrideDeconv1dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);       // padded input length
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);      // lenIn - kernel + 1
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // output positions per tile (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);     // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, numCoBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, numLenTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UnitStrideDeconv1dCustom, UnitStrideDeconv1dTilingData)
}
"""

host_operator_src="""
#include "unit_stride_deconv1d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
namespace {
constexpr uint32_t TILE_LEN = 512;
constexpr uint32_t MAX_CO_BLOCK = 16;
constexpr uint32_t WEIGHT_UB_BYTES = 32 * 1024;  // budget for the cached weight slab

uint32_t PickCoBlock(uint32_t cin, uint32_t cout, uint32_t k, uint32_t elemBytes)
{
    uint32_t blk = cout < MAX_CO_BLOCK ? cout : MAX_CO_BLOCK;
    // weight slab rows are co-block * k elements, each row padded to 32 B in UB
    while (blk > 1) {
        uint32_t rowBytes = (blk * k * elemBytes + 31) / 32 * 32;
        if (rowBytes * cin <= WEIGHT_UB_BYTES && cout % blk == 0) {
            break;
        }
        --blk;
    }
    return blk;
}
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Shape& xs = context->GetInputShape(0)->GetOriginShape();   // [B, Cin, Lp]
    const gert::Shape& ws = context->GetInputShape(1)->GetOriginShape();   // [Cin, Cout, K]
    uint32_t batch = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t lenIn = xs.GetDim(2);
    uint32_t cout = ws.GetDim(1);
    uint32_t k = ws.GetDim(2);
    if (ws.GetDim(0) != cin || lenIn < k) {
        return ge::GRAPH_FAILED;
    }
    uint32_t lenOut = lenIn - k + 1;
    ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    uint32_t elemBytes = dt == ge::DT_FLOAT16 ? 2 : 4;

    UnitStrideDeconv1dTilingData td;
    uint32_t coBlock = PickCoBlock(cin, cout, k, elemBytes);
    uint32_t tileLen = lenOut < TILE_LEN ? (lenOut + 15) / 16 * 16 : TILE_LEN;
    uint32_t numCoBlocks = (cout + coBlock - 1) / coBlock;
    uint32_t numLenTiles = (lenOut + tileLen - 1) / tileLen;
    uint32_t totalUnits = batch * numCoBlocks * numLenTiles;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t perCore = (totalUnits + cores - 1) / cores;
    uint32_t used = (totalUnits + perCore - 1) / perCore;

    td.set_batch(batch);
    td.set_cin(cin);
    td.set_cout(cout);
    td.set_kernel(k);
    td.set_lenIn(lenIn);
    td.set_lenOut(lenOut);
    td.set_tileLen(tileLen);
    td.set_coBlock(coBlock);
    td.set_numCoBlocks(numCoBlocks);
    td.set_numLenTiles(numLenTiles);
    td.set_totalUnits(totalUnits);
    td.set_unitsPerCore(perCore);

    context->SetBlockDim(used);
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
    ys->SetDimNum(3);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, ws->GetDim(1));
    ys->SetDim(2, xs->GetDim(2) - ws->GetDim(2) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class UnitStrideDeconv1dCustom : public OpDef {
public:
    explicit UnitStrideDeconv1dCustom(const char* name) : OpDef(name)
    {
        this->Input("x_padded")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(UnitStrideDeconv1dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// Transposed conv with stride 1 on an input already zero-padded by (K-1-pad) on both sides:
//   y[b, co, l] = sum_ci sum_k xp[b, ci, l + K-1-k] * w[ci, co, k]
// Each work unit owns (batch, block of output channels, tile of output positions) and keeps
// the partial sums for all channels of the block in an fp32 accumulator.
template <typename T>
class UnitStrideDeconv1d {
public:
    __aicore__ inline UnitStrideDeconv1d() {}

    __aicore__ inline void Init(GM_ADDR xp, GM_ADDR w, GM_ADDR y, const UnitStrideDeconv1dTilingData& td)
    {
        t = td;
        xGm.SetGlobalBuffer((__gm__ T*)xp, (uint64_t)t.batch * t.cin * t.lenIn);
        wGm.SetGlobalBuffer((__gm__ T*)w, (uint64_t)t.cin * t.cout * t.kernel);
        yGm.SetGlobalBuffer((__gm__ T*)y, (uint64_t)t.batch * t.cout * t.lenOut);

        wRowElems = AlignUp(t.coBlock * t.kernel, 32 / sizeof(T));
        pipe.InitBuffer(inQ, BUFFER_NUM, t.tileLen * sizeof(T));
        pipe.InitBuffer(outQ, BUFFER_NUM, t.coBlock * t.tileLen * sizeof(T));
        pipe.InitBuffer(wQ, 1, t.cin * wRowElems * sizeof(T));
        pipe.InitBuffer(accBuf, t.coBlock * t.tileLen * sizeof(float));
        pipe.InitBuffer(xfBuf, t.tileLen * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t first = GetBlockIdx() * t.unitsPerCore;
        uint32_t last = first + t.unitsPerCore;
        if (last > t.totalUnits) {
            last = t.totalUnits;
        }
        int32_t cachedCob = -1;
        for (uint32_t u = first; u < last; ++u) {
            uint32_t lt = u % t.numLenTiles;
            uint32_t cob = (u / t.numLenTiles) % t.numCoBlocks;
            uint32_t b = u / (t.numLenTiles * t.numCoBlocks);
            if ((int32_t)cob != cachedCob) {
                if (cachedCob >= 0) {
                    wQ.FreeTensor(wLocal);
                }
                LoadWeights(cob);
                cachedCob = (int32_t)cob;
            }
            RunUnit(b, cob, lt);
        }
        if (cachedCob >= 0) {
            wQ.FreeTensor(wLocal);
        }
    }

private:
    __aicore__ inline uint32_t AlignUp(uint32_t v, uint32_t a) const { return (v + a - 1) / a * a; }

    // slab w[:, cob*B : cob*B+B, :] -> UB, one padded row per input channel
    __aicore__ inline void LoadWeights(uint32_t cob)
    {
        LocalTensor<T> wl = wQ.AllocTensor<T>();
        uint32_t rowBytes = t.coBlock * t.kernel * sizeof(T);
        uint32_t gap = (t.cout - t.coBlock) * t.kernel * sizeof(T);
        DataCopyExtParams cp{static_cast<uint16_t>(t.cin), rowBytes, gap, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(wl, wGm[(uint64_t)cob * t.coBlock * t.kernel], cp, pad);
        wQ.EnQue(wl);
        wLocal = wQ.DeQue<T>();
    }

    __aicore__ inline void RunUnit(uint32_t b, uint32_t cob, uint32_t lt)
    {
        uint32_t l0 = lt * t.tileLen;
        uint32_t len = (l0 + t.tileLen <= t.lenOut) ? t.tileLen : (t.lenOut - l0);
        LocalTensor<float> acc = accBuf.Get<float>();
        Duplicate(acc, 0.0f, t.coBlock * t.tileLen);

        for (uint32_t ci = 0; ci < t.cin; ++ci) {
            uint64_t rowBase = ((uint64_t)b * t.cin + ci) * t.lenIn + l0;
            for (uint32_t k = 0; k < t.kernel; ++k) {
                CopyIn(rowBase + (t.kernel - 1 - k), len);
                Accumulate(acc, ci, k, len);
            }
        }
        Emit(acc, b, cob, l0, len);
    }

    __aicore__ inline void CopyIn(uint64_t gmOff, uint32_t len)
    {
        LocalTensor<T> xl = inQ.AllocTensor<T>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[gmOff], cp, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Accumulate(LocalTensor<float>& acc, uint32_t ci, uint32_t k, uint32_t len)
    {
        LocalTensor<T> xl = inQ.DeQue<T>();
        LocalTensor<float> xf = xfBuf.Get<float>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(xf, xl, AlignUp(len, 8));
        } else {
            Cast(xf, xl, RoundMode::CAST_NONE, len);
        }
        inQ.FreeTensor(xl);

        uint32_t wRow = ci * wRowElems;
        for (uint32_t j = 0; j < t.coBlock; ++j) {
            float wv = static_cast<float>(wLocal.GetValue(wRow + j * t.kernel + k));
            Axpy(acc[j * t.tileLen], xf, wv, len);
        }
    }

    __aicore__ inline void Emit(LocalTensor<float>& acc, uint32_t b, uint32_t cob, uint32_t l0, uint32_t len)
    {
        uint32_t total = t.coBlock * t.tileLen;
        LocalTensor<T> yl = outQ.AllocTensor<T>();
        if constexpr (std::is_same<T, float>::value) {
            DataCopy(yl, acc, total);
        } else {
            Cast(yl, acc, RoundMode::CAST_ROUND, total);
        }
        outQ.EnQue(yl);

        yl = outQ.DeQue<T>();
        // rows of the block are tileLen apart in UB and lenOut apart in GM
        uint32_t elemsPerBlk = 32 / sizeof(T);
        uint32_t ubGapBlocks = (t.tileLen - AlignUp(len, elemsPerBlk)) / elemsPerBlk;
        DataCopyExtParams cp{static_cast<uint16_t>(t.coBlock), static_cast<uint32_t>(len * sizeof(T)),
                             ubGapBlocks, static_cast<uint32_t>((t.lenOut - len) * sizeof(T)), 0};
        uint64_t dst = ((uint64_t)b * t.cout + cob * t.coBlock) * t.lenOut + l0;
        DataCopyPad(yGm[dst], yl, cp);
        outQ.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    TQue<QuePosition::VECIN, 1> wQ;
    TBuf<QuePosition::VECCALC> accBuf, xfBuf;
    GlobalTensor<T> xGm, wGm, yGm;
    LocalTensor<T> wLocal;
    UnitStrideDeconv1dTilingData t;
    uint32_t wRowElems = 0;
};

extern "C" __global__ __aicore__ void unit_stride_deconv1d_custom(GM_ADDR x_padded, GM_ADDR weight, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    UnitStrideDeconv1d<DTYPE_X_PADDED> op;
    op.Init(x_padded, weight, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// ConvTranspose1d(stride=1, groups=1, dilation=1). The kernel runs on an input padded by
// (K-1-padding) on the left and (K-1-padding+output_padding) on the right.
at::Tensor unit_stride_deconv1d_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                         int64_t padding, int64_t output_padding)
{
    TORCH_CHECK(x.dim() == 3 && weight.dim() == 3, "expected x [B,Cin,L], weight [Cin,Cout,K]");
    int64_t k = weight.size(2);
    int64_t edge = k - 1 - padding;
    TORCH_CHECK(edge >= 0, "padding larger than kernel_size-1 is not supported");
    at::Tensor xp = at::constant_pad_nd(x, {edge, edge + output_padding}, 0).contiguous();
    at::Tensor w = weight.to(x.scalar_type()).contiguous();
    int64_t lenOut = xp.size(2) - k + 1;
    at::Tensor y = at::empty({x.size(0), w.size(1), lenOut}, x.options());
    EXEC_NPU_CMD(aclnnUnitStrideDeconv1dCustom, xp, w, y);
    return y;
}

at::Tensor unit_stride_deconv1d_bias_npu(const at::Tensor& x, const at::Tensor& weight,
                                         const c10::optional<at::Tensor>& bias,
                                         int64_t padding, int64_t output_padding)
{
    at::Tensor y = unit_stride_deconv1d_impl_npu(x, weight, padding, output_padding);
    if (bias.has_value() && bias->defined()) {
        y.add_(bias->view({1, -1, 1}));
    }
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("unit_stride_deconv1d_custom", &unit_stride_deconv1d_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("unit_stride_deconv1d_custom", &unit_stride_deconv1d_impl_npu, "stride-1 ConvTranspose1d",
          pybind11::arg("x"), pybind11::arg("weight"), pybind11::arg("padding") = 0,
          pybind11::arg("output_padding") = 0);
    m.def("unit_stride_deconv1d", &unit_stride_deconv1d_bias_npu, "stride-1 ConvTranspose1d with optional bias");
}
"""
