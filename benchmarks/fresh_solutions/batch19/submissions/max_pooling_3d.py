project_json_src='''
[
    {
        "op": "MaxPooling3dCustom",
        "language": "cpp",
        "input_desc": [
            {
                "name": "x",
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
        ],
        "attr": [
            {"name": "kernel_size", "param_type": "required", "type": "int"},
            {"name": "stride", "param_type": "required", "type": "int"},
            {"name": "padding", "param_type": "required", "type": "int"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxPooling3dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint64_t, totalRows);     // N*C*outD*outH output rows
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerBatch);  // output rows buffered before one store
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxPooling3dCustom, MaxPooling3dCustomTilingData)
}
"""

host_operator_src="""
#include "max_pooling_3d_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static uint32_t PoolOut(uint32_t in, uint32_t k, uint32_t s, uint32_t p)
{
    return (in + 2 * p - k) / s + 1;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MaxPooling3dCustomTilingData td;
    auto shape = context->GetInputShape(0)->GetStorageShape();
    if (shape.GetDimNum() != 5) {
        return ge::GRAPH_FAILED;
    }
    auto attrs = context->GetAttrs();
    uint32_t k = static_cast<uint32_t>(*attrs->GetInt(0));
    uint32_t s = static_cast<uint32_t>(*attrs->GetInt(1));
    uint32_t p = static_cast<uint32_t>(*attrs->GetInt(2));
    if (s == 0) {
        s = k;
    }

    uint64_t nc = static_cast<uint64_t>(shape.GetDim(0)) * shape.GetDim(1);
    uint32_t d = shape.GetDim(2), h = shape.GetDim(3), w = shape.GetDim(4);
    uint32_t od = PoolOut(d, k, s, p), oh = PoolOut(h, k, s, p), ow = PoolOut(w, k, s, p);

    td.set_inD(d);
    td.set_inH(h);
    td.set_inW(w);
    td.set_inWAlign((w + 7) / 8 * 8);
    td.set_outD(od);
    td.set_outH(oh);
    td.set_outW(ow);
    td.set_outWAlign((ow + 7) / 8 * 8);
    td.set_kernel(k);
    td.set_stride(s);
    td.set_pad(p);

    uint64_t rows = nc * od * oh;
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t cores = plat.GetCoreNumAiv();
    uint64_t perCore = (rows + cores - 1) / cores;
    uint32_t used = static_cast<uint32_t>((rows + perCore - 1) / perCore);
    td.set_totalRows(rows);
    td.set_rowsPerCore(perCore);
    td.set_rowsPerBatch(16);

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
    const gert::Shape* x = context->GetInputShape(0);
    auto attrs = context->GetAttrs();
    int64_t k = *attrs->GetInt(0);
    int64_t s = *attrs->GetInt(1);
    int64_t p = *attrs->GetInt(2);
    if (s == 0) {
        s = k;
    }
    gert::Shape* y = context->GetOutputShape(0);
    *y = *x;
    for (size_t i = 2; i < 5; ++i) {
        y->SetDim(i, (x->GetDim(i) + 2 * p - k) / s + 1);
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
class MaxPooling3dCustom : public OpDef {
public:
    explicit MaxPooling3dCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT})
            .Format({ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("kernel_size").Int();
        this->Attr("stride").Int();
        this->Attr("padding").Int();

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(MaxPooling3dCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

// Each core owns a contiguous range of output rows (n, c, od, oh). For one output row the
// (up to) k*k contributing input rows are copied in, max-reduced element-wise into a single
// row, and then the width window is resolved with k Gathers (precomputed byte offsets,
// padding handled by clamping the column index into the valid range).
class KernelMaxPool3d {
public:
    __aicore__ inline KernelMaxPool3d() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const MaxPooling3dCustomTilingData& t)
    {
        inD = t.inD; inH = t.inH; inW = t.inW; inWA = t.inWAlign;
        outD = t.outD; outH = t.outH; outW = t.outW; outWA = t.outWAlign;
        k = t.kernel; s = t.stride; p = t.pad;
        batchRows = t.rowsPerBatch;

        uint64_t begin = static_cast<uint64_t>(AscendC::GetBlockIdx()) * t.rowsPerCore;
        uint64_t end = begin + t.rowsPerCore;
        if (end > t.totalRows) {
            end = t.totalRows;
        }
        rowBegin = begin;
        rowCount = end > begin ? end - begin : 0;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        pipe.InitBuffer(inQueue, BUFFER_NUM, k * k * inWA * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, batchRows * outWA * sizeof(float));
        pipe.InitBuffer(accBuf, inWA * sizeof(float));
        pipe.InitBuffer(colBuf, outWA * sizeof(float));
        pipe.InitBuffer(offBuf, k * outWA * sizeof(uint32_t));

        AscendC::LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        for (uint32_t j = 0; j < k; ++j) {
            for (uint32_t o = 0; o < outWA; ++o) {
                int32_t col = static_cast<int32_t>(o * s) - static_cast<int32_t>(p) + static_cast<int32_t>(j);
                if (col < 0) col = 0;
                if (col > static_cast<int32_t>(inW) - 1) col = static_cast<int32_t>(inW) - 1;
                off.SetValue(j * outWA + o, static_cast<uint32_t>(col) * 4U);
            }
        }
    }

    __aicore__ inline void Process()
    {
        uint64_t done = 0;
        while (done < rowCount) {
            uint32_t cnt = (rowCount - done) < batchRows ? static_cast<uint32_t>(rowCount - done) : batchRows;
            AscendC::LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
            for (uint32_t r = 0; r < cnt; ++r) {
                uint32_t nRows = CopyIn(rowBegin + done + r);
                Compute(outLocal[r * outWA], nRows);
            }
            outQueue.EnQue(outLocal);
            CopyOut(rowBegin + done, cnt);
            done += cnt;
        }
    }

private:
    // loads all valid input rows of the window; returns how many rows were loaded
    __aicore__ inline uint32_t CopyIn(uint64_t row)
    {
        uint32_t oh = static_cast<uint32_t>(row % outH);
        uint64_t tmp = row / outH;
        uint32_t od = static_cast<uint32_t>(tmp % outD);
        uint64_t nc = tmp / outD;

        int32_t d0 = static_cast<int32_t>(od * s) - static_cast<int32_t>(p);
        int32_t h0 = static_cast<int32_t>(oh * s) - static_cast<int32_t>(p);
        int32_t hLo = h0 < 0 ? 0 : h0;
        int32_t hHi = h0 + static_cast<int32_t>(k);
        if (hHi > static_cast<int32_t>(inH)) hHi = static_cast<int32_t>(inH);
        uint16_t hRows = static_cast<uint16_t>(hHi - hLo);

        AscendC::LocalTensor<float> inLocal = inQueue.AllocTensor<float>();
        AscendC::DataCopyExtParams cp{hRows, static_cast<uint32_t>(inW * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPadExtParams<float> padp{false, 0, 0, 0.0f};
        uint32_t loaded = 0;
        for (uint32_t kd = 0; kd < k; ++kd) {
            int32_t d = d0 + static_cast<int32_t>(kd);
            if (d < 0 || d >= static_cast<int32_t>(inD)) {
                continue;
            }
            uint64_t src = ((nc * inD + static_cast<uint64_t>(d)) * inH + static_cast<uint64_t>(hLo)) * inW;
            AscendC::DataCopyPad(inLocal[loaded * inWA], xGm[src], cp, padp);
            loaded += hRows;
        }
        inQueue.EnQue(inLocal);
        return loaded;
    }

    __aicore__ inline void Compute(const AscendC::LocalTensor<float>& dst, uint32_t nRows)
    {
        AscendC::LocalTensor<float> inLocal = inQueue.DeQue<float>();
        AscendC::LocalTensor<float> acc = accBuf.Get<float>();
        AscendC::LocalTensor<float> col = colBuf.Get<float>();
        AscendC::LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();

        // reduce over depth/height
        AscendC::DataCopy(acc, inLocal, inWA);
        for (uint32_t r = 1; r < nRows; ++r) {
            AscendC::Max(acc, acc, inLocal[r * inWA], inWA);
        }
        // reduce over width
        AscendC::Gather(dst, acc, off, 0, outWA);
        for (uint32_t j = 1; j < k; ++j) {
            AscendC::Gather(col, acc, off[j * outWA], 0, outWA);
            AscendC::Max(dst, dst, col, outWA);
        }
        inQueue.FreeTensor(inLocal);
    }

    __aicore__ inline void CopyOut(uint64_t firstRow, uint32_t cnt)
    {
        AscendC::LocalTensor<float> outLocal = outQueue.DeQue<float>();
        AscendC::DataCopyExtParams cp{static_cast<uint16_t>(cnt), static_cast<uint32_t>(outW * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(yGm[firstRow * outW], outLocal, cp);
        outQueue.FreeTensor(outLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::TPosition::VECCALC> accBuf, colBuf, offBuf;
    AscendC::GlobalTensor<float> xGm, yGm;
    uint32_t inD, inH, inW, inWA, outD, outH, outW, outWA, k, s, p, batchRows;
    uint64_t rowBegin, rowCount;
};

extern "C" __global__ __aicore__ void max_pooling_3d_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tiling_data, tiling);
    KernelMaxPool3d op;
    op.Init(x, y, tiling_data);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

static int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p) { return (in + 2 * p - k) / s + 1; }

at::Tensor max_pooling_3d_custom_impl_npu(const at::Tensor& x, int64_t kernel_size, int64_t stride, int64_t padding)
{
    if (stride <= 0) {
        stride = kernel_size;
    }
    at::Tensor xc = x.contiguous();
    at::Tensor y = at::empty({xc.size(0), xc.size(1),
                              pool_out(xc.size(2), kernel_size, stride, padding),
                              pool_out(xc.size(3), kernel_size, stride, padding),
                              pool_out(xc.size(4), kernel_size, stride, padding)}, xc.options());
    EXEC_NPU_CMD(aclnnMaxPooling3dCustom, xc, kernel_size, stride, padding, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("max_pooling_3d_custom", &max_pooling_3d_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("max_pooling_3d_custom", &max_pooling_3d_custom_impl_npu, "MaxPool3d (custom)");
}
"""

model_src='''
import torch
import torch_npu
import custom_ops_lib

class ModelNew(torch.nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, return_indices: bool = False, ceil_mode: bool = False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return custom_ops_lib.max_pooling_3d_custom(x, self.kernel_size, self.stride, self.padding)
'''
