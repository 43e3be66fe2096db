python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor elmentwise_mul_broadcast_custom_impl_npu(const at::Tensor& a, const at::Tensor& b)
{
    TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "expect 3-D inputs");
    TORCH_CHECK(a.size(2) == b.size(2), "last dim must match");
    int64_t p = std::max(a.size(0), b.size(0));
    int64_t q = std::max(a.size(1), b.size(1));
    at::Tensor out = at::empty({p, q, a.size(2)}, a.options());
    EXEC_NPU_CMD(aclnnElmentwiseMulBroadcastCustom, a.contiguous(), b.contiguous(), out);
    return out;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("elmentwise_mul_broadcast_custom", &elmentwise_mul_broadcast_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("elmentwise_mul_broadcast_custom", &elmentwise_mul_broadcast_custom_impl_npu,
          "a * b with broadcasting over the two leading dims");
}
"""

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ElmentwiseMulBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, p);        // out dim 0
  TILING_DATA_FIELD_DEF(uint32_t, q);        // out dim 1
  TILING_DATA_FIELD_DEF(uint32_t, len);      // innermost (shared) dim
  TILING_DATA_FIELD_DEF(uint32_t, a_sp);     // a row stride for dim0 (0 = broadcast)
  TILING_DATA_FIELD_DEF(uint32_t, a_sq);     // a row stride for dim1 (0 = broadcast)
  TILING_DATA_FIELD_DEF(uint32_t, b_sp);
  TILING_DATA_FIELD_DEF(uint32_t, b_sq);
  TILING_DATA_FIELD_DEF(uint32_t, seg_len);  // columns of one segment
  TILING_DATA_FIELD_DEF(uint32_t, seg_per_row);
  TILING_DATA_FIELD_DEF(uint32_t, seg_blk);  // segments per core
  TILING_DATA_FIELD_DEF(uint32_t, seg_total);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ElmentwiseMulBroadcastCustom, ElmentwiseMulBroadcastCustomTilingData)
}
"""

host_operator_src="""
#include "elmentwise_mul_broadcast_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_SEG = 8192;
constexpr uint32_t MIN_SEG = 512;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto as = context->GetInputShape(0)->GetStorageShape();
    auto bs = context->GetInputShape(1)->GetStorageShape();
    uint32_t pa = as.GetDim(0), qa = as.GetDim(1);
    uint32_t pb = bs.GetDim(0), qb = bs.GetDim(1);
    uint32_t len = as.GetDim(2);
    if ((pa != pb && pa != 1 && pb != 1) || (qa != qb && qa != 1 && qb != 1) || len != bs.GetDim(2)) {
        return ge::GRAPH_FAILED;
    }
    uint32_t p = pa > pb ? pa : pb;
    uint32_t q = qa > qb ? qa : qb;

    // rows are independent; split each row into segments so that every core has work
    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t rows = p * q;
    uint32_t seg_per_row = 1;
    while (rows * seg_per_row < cores && len / (seg_per_row * 2) >= MIN_SEG) {
        seg_per_row *= 2;
    }
    uint32_t seg_len = (len + seg_per_row - 1) / seg_per_row;
    seg_len = (seg_len + 7) / 8 * 8;
    while (seg_len > MAX_SEG) {
        seg_per_row *= 2;
        seg_len = ((len + seg_per_row - 1) / seg_per_row + 7) / 8 * 8;
    }
    seg_per_row = (len + seg_len - 1) / seg_len;
    uint32_t seg_total = rows * seg_per_row;
    uint32_t seg_blk = (seg_total + cores - 1) / cores;
    uint32_t used = (seg_total + seg_blk - 1) / seg_blk;

    ElmentwiseMulBroadcastCustomTilingData td;
    td.set_p(p);
    td.set_q(q);
    td.set_len(len);
    td.set_a_sp(pa == 1 ? 0 : qa);
    td.set_a_sq(qa == 1 ? 0 : 1);
    td.set_b_sp(pb == 1 ? 0 : qb);
    td.set_b_sq(qb == 1 ? 0 : 1);
    td.set_seg_len(seg_len);
    td.set_seg_per_row(seg_per_row);
    td.set_seg_blk(seg_blk);
    td.set_seg_total(seg_total);

    context->SetBlockDim(used);
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
    const gert::Shape* as = context->GetInputShape(0);
    const gert::Shape* bs = context->GetInputShape(1);
    gert::Shape* os = context->GetOutputShape(0);
    os->SetDimNum(3);
    for (size_t i = 0; i < 3; ++i) {
        int64_t da = as->GetDim(i);
        int64_t db = bs->GetDim(i);
        os->SetDim(i, da == 1 ? db : da);
    }
    return GRAPH_SUCCESS;
}

static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class ElmentwiseMulBroadcastCustom : public OpDef {
public:
    explicit ElmentwiseMulBroadcastCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("out").ParamType(REQUIRED).DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ElmentwiseMulBroadcastCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// out[i, j, :] = a[i*a_sp + j*a_sq, :] * b[i*b_sp + j*b_sq, :]
// work unit = one segment of one output row
class KernelBcastMul {
public:
    __aicore__ inline KernelBcastMul() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR out, const ElmentwiseMulBroadcastCustomTilingData& td)
    {
        t = td;
        seg_begin = GetBlockIdx() * t.seg_blk;
        seg_end = seg_begin + t.seg_blk;
        if (seg_end > t.seg_total) seg_end = t.seg_total;

        a_gm.SetGlobalBuffer((__gm__ float*)a);
        b_gm.SetGlobalBuffer((__gm__ float*)b);
        o_gm.SetGlobalBuffer((__gm__ float*)out, (uint64_t)t.p * t.q * t.len);

        pipe.InitBuffer(qa, BUFFER_NUM, t.seg_len * sizeof(float));
        pipe.InitBuffer(qb, BUFFER_NUM, t.seg_len * sizeof(float));
        pipe.InitBuffer(qo, BUFFER_NUM, t.seg_len * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t s = seg_begin; s < seg_end; ++s) {
            uint32_t row = s / t.seg_per_row;
            uint32_t col = (s % t.seg_per_row) * t.seg_len;
            uint32_t n = (t.len - col) < t.seg_len ? (t.len - col) : t.seg_len;
            uint32_t i = row / t.q;
            uint32_t j = row % t.q;
            uint64_t a_off = (uint64_t)(i * t.a_sp + j * t.a_sq) * t.len + col;
            uint64_t b_off = (uint64_t)(i * t.b_sp + j * t.b_sq) * t.len + col;
            uint64_t o_off = (uint64_t)row * t.len + col;

            copy_in(a_off, b_off, n);
            compute(n);
            copy_out(o_off, n);
        }
    }

private:
    __aicore__ inline void copy_in(uint64_t a_off, uint64_t b_off, uint32_t n)
    {
        LocalTensor<float> la = qa.AllocTensor<float>();
        LocalTensor<float> lb = qb.AllocTensor<float>();
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(la, a_gm[a_off], cp, pad);
        DataCopyPad(lb, b_gm[b_off], cp, pad);
        qa.EnQue(la);
        qb.EnQue(lb);
    }

    __aicore__ inline void compute(uint32_t n)
    {
        LocalTensor<float> la = qa.DeQue<float>();
        LocalTensor<float> lb = qb.DeQue<float>();
        LocalTensor<float> lo = qo.AllocTensor<float>();
        Mul(lo, la, lb, n);
        qo.EnQue(lo);
        qa.FreeTensor(la);
        qb.FreeTensor(lb);
    }

    __aicore__ inline void copy_out(uint64_t o_off, uint32_t n)
    {
        LocalTensor<float> lo = qo.DeQue<float>();
        DataCopyExtParams cp{1, n * static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
        DataCopyPad(o_gm[o_off], lo, cp);
        qo.FreeTensor(lo);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> qa, qb;
    TQue<QuePosition::VECOUT, BUFFER_NUM> qo;
    GlobalTensor<float> a_gm, b_gm, o_gm;
    ElmentwiseMulBroadcastCustomTilingData t;
    uint32_t seg_begin, seg_end;
};

extern "C" __global__ __aicore__ void elmentwise_mul_broadcast_custom(GM_ADDR a, GM_ADDR b, GM_ADDR out,
                                                                      GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    KernelBcastMul op;
    op.Init(a, b, out, td);
    op.Process();
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, a, b):
        return custom_ops_lib.elmentwise_mul_broadcast_custom(a, b)
'''

project_json_src='''
[
    {
        "op": "ElmentwiseMulBroadcastCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "a", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "b", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "out", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''
