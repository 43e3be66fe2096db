# project json
project_json_src='''
[
    {
        "op": "L2NormCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

# tiling
host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(L2NormCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
  TILING_DATA_FIELD_DEF(uint32_t, tailLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(L2NormCustom, L2NormCustomTilingData)
}
"""

# host
host_operator_src="""
#include "l2_norm_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_TILE = 8192;
static ge::graphStatus TilingFunc(gert::TilingContext* ctx)
{
    L2NormCustomTilingData td;
    auto s = ctx->GetInputShape(0)->GetStorageShape();
    uint32_t dim = s.GetDim(1);
    uint32_t rows = s.GetShapeSize() / dim;
    uint32_t tile = (dim + 7) / 8 * 8;
    if (tile > MAX_TILE) tile = MAX_TILE;
    uint32_t tn = (dim + tile - 1) / tile;
    uint32_t tail = dim - (tn - 1) * tile;
    auto plat = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    if (cores > rows) cores = rows;
    uint32_t per = (rows + cores - 1) / cores;
    cores = (rows + per - 1) / per;
    ctx->SetBlockDim(cores);
    td.set_rows(rows); td.set_dim(dim); td.set_tileLen(tile); td.set_tileNum(tn); td.set_tailLen(tail); td.set_rowsPerCore(per);
    td.SaveToBuffer(ctx->GetRawTilingData()->GetData(), ctx->GetRawTilingData()->GetCapacity());
    ctx->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* ws = ctx->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* ctx)
{
    *ctx->GetOutputShape(0) = *ctx->GetInputShape(0);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* ctx)
{
    ctx->SetOutputDataType(0, ctx->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class L2NormCustom : public OpDef {
public:
    explicit L2NormCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(L2NormCustom);
}
"""

# kernel
kernel_src="""
#include "kernel_operator.h"

constexpr int32_t DB = 2;

class KernelL2Norm {
public:
    __aicore__ inline KernelL2Norm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const L2NormCustomTilingData& td)
    {
        dim = td.dim; tl = td.tileLen; tn = td.tileNum; tail = td.tailLen;
        r0 = AscendC::GetBlockIdx() * td.rowsPerCore;
        r1 = r0 + td.rowsPerCore;
        if (r1 > td.rows) r1 = td.rows;
        xGm.SetGlobalBuffer((__gm__ float*)x, (uint64_t)td.rows * dim);
        yGm.SetGlobalBuffer((__gm__ float*)y, (uint64_t)td.rows * dim);
        pipe.InitBuffer(inQ, DB, tl * sizeof(float));
        pipe.InitBuffer(outQ, DB, tl * sizeof(float));
        pipe.InitBuffer(accB, tl * sizeof(float));
        pipe.InitBuffer(sqB, tl * sizeof(float));
        pipe.InitBuffer(wkB, tl * sizeof(float));
        pipe.InitBuffer(resB, 8 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = r0; r < r1; r++) {
            uint64_t base = (uint64_t)r * dim;
            float inv = RowInvNorm(base);
            for (uint32_t i = 0; i < tn; i++) {
                uint32_t len = (i == tn - 1) ? tail : tl;
                Load(base + (uint64_t)i * tl, len);
                Scale(inv, len);
                Store(base + (uint64_t)i * tl, len);
            }
        }
    }

private:
    __aicore__ inline float RowInvNorm(uint64_t base)
    {
        AscendC::LocalTensor<float> acc = accB.Get<float>();
        AscendC::LocalTensor<float> sq = sqB.Get<float>();
        AscendC::Duplicate(acc, 0.0f, tl);
        for (uint32_t i = 0; i < tn; i++) {
            uint32_t len = (i == tn - 1) ? tail : tl;
            Load(base + (uint64_t)i * tl, len);
            AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
            AscendC::Mul(sq, xl, xl, len);
            AscendC::Add(acc, acc, sq, len);
            inQ.FreeTensor(xl);
        }
        AscendC::LocalTensor<float> res = resB.Get<float>();
        AscendC::ReduceSum(res, acc, wkB.Get<float>(), tl);
        AscendC::Sqrt(res, res, 1);
        event_t ev = static_cast<event_t>(pipe.FetchEventID(AscendC::HardEvent::V_S));
        AscendC::SetFlag<AscendC::HardEvent::V_S>(ev);
        AscendC::WaitFlag<AscendC::HardEvent::V_S>(ev);
        float nrm = res.GetValue(0);
        return 1.0f / nrm;
    }
    __aicore__ inline void Load(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> xl = inQ.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> pp{false, 0, 0, 0.0f};
        AscendC::DataCopyPad(xl, xGm[off], cp, pp);
        inQ.EnQue(xl);
    }
    __aicore__ inline void Scale(float inv, uint32_t len)
    {
        AscendC::LocalTensor<float> xl = inQ.DeQue<float>();
        AscendC::LocalTensor<float> yl = outQ.AllocTensor<float>();
        AscendC::Muls(yl, xl, inv, len);
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
    }
    __aicore__ inline void Store(uint64_t off, uint32_t len)
    {
        AscendC::LocalTensor<float> yl = outQ.DeQue<float>();
        AscendC::DataCopyExtParams cp{1, len * (uint32_t)sizeof(float), 0, 0, 0};
        AscendC::DataCopyPad(yGm[off], yl, cp);
        outQ.FreeTensor(yl);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, DB> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, DB> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accB, sqB, wkB, resB;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t dim, tl, tn, tail, r0, r1;
};

extern "C" __global__ __aicore__ void l2_norm_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelL2Norm op;
    op.Init(x, y, td);
    op.Process();
}
"""

# binding
python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor l2_norm_custom_impl_npu(const at::Tensor& x)
{
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty_like(xc);
    EXEC_NPU_CMD(aclnnL2NormCustom, xc, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("l2_norm_custom", &l2_norm_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("l2_norm_custom", &l2_norm_custom_impl_npu, "");
}
"""

# model
model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return custom_ops_lib.l2_norm_custom(x)
'''
