project_json_src='''
[
    {
        "op": "ClampBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "min_val",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            },
            {
                "name": "max_val",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ],
        "output_desc": [
            {
                "name": "y",
                "param_type": "required",
                "format": ["ND"],
                "type": ["float"]
            }
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClampBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // x 展平成 [rows, cols]
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // 最后一维, 与 min/max 长度一致
  TILING_DATA_FIELD_DEF(uint32_t, colsPad);       // cols 向上对齐到 8
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);    // 余下的行分给前几个核
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // 一次搬入 UB 的行数
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampBroadcastCustom, ClampBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "clamp_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t UB_TILE_ELEMS = 8192;   // 每块输入 32KB, 双缓冲 in/out 共 128KB

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ClampBroadcastCustomTilingData td;
    const gert::StorageShape* xs = context->GetInputShape(0);
    const gert::StorageShape* ms = context->GetInputShape(1);
    uint32_t total = static_cast<uint32_t>(xs->GetStorageShape().GetShapeSize());
    uint32_t cols = static_cast<uint32_t>(ms->GetStorageShape().GetShapeSize());
    if (cols == 0 || total % cols != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t rows = total / cols;
    uint32_t colsPad = (cols + 7U) / 8U * 8U;
    if (colsPad > UB_TILE_ELEMS) {
        // 一行放不下, 本实现不支持
        return ge::GRAPH_FAILED;
    }

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aivNum = plat.GetCoreNumAiv();
    uint32_t blockDim = rows < aivNum ? rows : aivNum;
    if (blockDim == 0) blockDim = 1;

    uint32_t rowsPerTile = UB_TILE_ELEMS / colsPad;
    uint32_t rowsPerCore = rows / blockDim;
    if (rowsPerTile > rowsPerCore + 1) {
        rowsPerTile = rowsPerCore + 1;
    }
    if (rowsPerTile == 0) rowsPerTile = 1;

    td.set_rows(rows);
    td.set_cols(cols);
    td.set_colsPad(colsPad);
    td.set_rowsPerCore(rowsPerCore);
    td.set_rowsRemain(rows % blockDim);
    td.set_rowsPerTile(rowsPerTile);

    context->SetBlockDim(blockDim);
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
class ClampBroadcastCustom : public OpDef {
public:
    explicit ClampBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("min_val").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("max_val").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClampBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// y = min(max(x, lo), hi), lo/hi 沿最后一维广播
// min/max 向量只搬一次常驻 UB, x 按 "若干整行" 为一块做双缓冲流水
class KernelClampBroadcast {
public:
    __aicore__ inline KernelClampBroadcast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR lo, GM_ADDR hi, GM_ADDR y,
                                uint32_t cols, uint32_t colsPad, uint32_t rowsPerCore,
                                uint32_t rowsRemain, uint32_t rowsPerTile)
    {
        cols_ = cols;
        colsPad_ = colsPad;
        rowsPerTile_ = rowsPerTile;

        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t rowBegin = idx * rowsPerCore + (idx < rowsRemain ? idx : rowsRemain);
        myRows_ = rowsPerCore + (idx < rowsRemain ? 1 : 0);

        xGm.SetGlobalBuffer((__gm__ float*)x + (uint64_t)rowBegin * cols, (uint64_t)myRows_ * cols);
        yGm.SetGlobalBuffer((__gm__ float*)y + (uint64_t)rowBegin * cols, (uint64_t)myRows_ * cols);
        loGm.SetGlobalBuffer((__gm__ float*)lo, cols);
        hiGm.SetGlobalBuffer((__gm__ float*)hi, cols);

        uint32_t tileBytes = rowsPerTile * colsPad * sizeof(float);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(outQ, BUFFER_NUM, tileBytes);
        pipe.InitBuffer(boundQ, 1, 2 * colsPad * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        if (myRows_ == 0) {
            return;
        }
        LoadBounds();
        uint32_t tiles = (myRows_ + rowsPerTile_ - 1) / rowsPerTile_;
        for (uint32_t t = 0; t < tiles; ++t) {
            uint32_t r0 = t * rowsPerTile_;
            uint32_t nr = (r0 + rowsPerTile_ <= myRows_) ? rowsPerTile_ : (myRows_ - r0);
            CopyIn(r0, nr);
            Compute(nr);
            CopyOut(r0, nr);
        }
        boundQ.FreeTensor(bounds);
    }

private:
    __aicore__ inline void LoadBounds()
    {
        AscendC::LocalTensor<float> b = boundQ.AllocTensor<float>();
        AscendC::DataCopyExtParams p{1, cols_ * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(b, loGm, p, pad);
        AscendC::DataCopyPad(b[colsPad_], hiGm, p, pad);
        boundQ.EnQue(b);
        bounds = boundQ.DeQue<float>();
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        // nr 行, 每行 cols 个元素, UB 侧每行按 colsPad 对齐存放
        AscendC::DataCopyExtParams p{(uint16_t)nr, cols_ * (uint32_t)sizeof(float), 0,
                                     (colsPad_ - cols_) * (uint32_t)sizeof(float) / 32, 0};
        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, xGm[(uint64_t)r0 * cols_], p, pad);
        inQ.EnQue(xl);
    }

    __aicore__ inline void Compute(uint32_t nr)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::LocalTensor<float> lo = bounds;
        AscendC::LocalTensor<float> hi = bounds[colsPad_];
        for (uint32_t r = 0; r < nr; ++r) {
            uint32_t off = r * colsPad_;
            AscendC::Max(yl[off], xl[off], lo, colsPad_);
            AscendC::Min(yl[off], yl[off], hi, colsPad_);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopyExtParams p{(uint16_t)nr, cols_ * (uint32_t)sizeof(float),
                                     (colsPad_ - cols_) * (uint32_t)sizeof(float) / 32, 0, 0};
        AscendC::DataCopyPad(yGm[(uint64_t)r0 * cols_], yl, p);
        outQ.FreeTensor(yl);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQ;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQ;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> boundQ;
    AscendC::LocalTensor<float> bounds;
    AscendC::GlobalTensor<float> xGm, yGm, loGm, hiGm;
    uint32_t cols_ = 0;
    uint32_t colsPad_ = 0;
    uint32_t rowsPerTile_ = 1;
    uint32_t myRows_ = 0;
};

extern "C" __global__ __aicore__ void clamp_broadcast_custom(GM_ADDR x, GM_ADDR min_val, GM_ADDR max_val,
                                                             GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelClampBroadcast op;
    op.Init(x, min_val, max_val, y, tilingData.cols, tilingData.colsPad, tilingData.rowsPerCore,
            tilingData.rowsRemain, tilingData.rowsPerTile);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor clamp_broadcast_custom_impl_npu(const at::Tensor& x, const at::Tensor& min_val,
                                           const at::Tensor& max_val)
{
    TORCH_CHECK(min_val.numel() == x.size(-1) && max_val.numel() == x.size(-1),
                "min/max must broadcast along the last dim of x");
    at::Tensor xc = x.contiguous();
    at::Tensor lo = min_val.contiguous();
    at::Tensor hi = max_val.contiguous();
    at::Tensor out = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnClampBroadcastCustom, xc, lo, hi, out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("clamp_broadcast_custom", &clamp_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("clamp_broadcast_custom", &clamp_broadcast_custom_impl_npu, "clamp with broadcast min/max");
}
"""
