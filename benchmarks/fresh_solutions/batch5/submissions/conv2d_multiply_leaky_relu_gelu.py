project_json_src='''
[
    {
        "op": "Conv2dMultiplyLeakyReluGeluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "multiplier", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "attr": [
            {"name": "negative_slope", "param_type": "optional", "type": "float", "default_value": "0.01"}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dMultiplyLeakyReluGeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ks);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, epiChunk);
  TILING_DATA_FIELD_DEF(float, slope);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dMultiplyLeakyReluGeluCustom, Conv2dMultiplyLeakyReluGeluCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_multiply_leaky_relu_gelu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
constexpr uint32_t ROWS_PER_TILE = 8;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    Conv2dMultiplyLeakyReluGeluCustomTilingData td;
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    float slope = *context->GetAttrs()->GetAttrPointer<float>(0);

    uint32_t n = xs.GetDim(0), cin = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t cout = ws.GetDim(0), k = ws.GetDim(2);
    uint32_t oh = h - k + 1, ow = w - k + 1;
    uint32_t tilesPerImg = (oh + ROWS_PER_TILE - 1) / ROWS_PER_TILE;

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t aic = plat.GetCoreNumAic();

    // per tile GEMM: [Cout, Cin*k*k] x [Cin*k*k, rows*OW]
    uint32_t gemmK = cin * k * k;
    uint32_t gemmN = ROWS_PER_TILE * ow;
    matmul_tiling::MatmulApiTiling mt(plat);
    mt.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mt.SetShape(cout, gemmN, gemmK);
    mt.SetOrgShape(cout, gemmN, gemmK);
    mt.SetBias(false);
    mt.SetBufferSpace(-1, -1, -1);
    if (mt.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    td.set_batch(n); td.set_cin(cin); td.set_cout(cout);
    td.set_inH(h); td.set_inW(w); td.set_ks(k);
    td.set_outH(oh); td.set_outW(ow);
    td.set_rowsPerTile(ROWS_PER_TILE);
    td.set_tilesPerImage(tilesPerImg);
    td.set_totalTiles(n * tilesPerImg);
    td.set_epiChunk(4096);
    td.set_slope(slope);

    context->SetBlockDim(aic);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());

    // per core: im2col buffer + gemm output
    size_t perCore = ((size_t)gemmK * gemmN + (size_t)cout * gemmN) * sizeof(float);
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + perCore * aic;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* w = context->GetInputShape(1);
    gert::Shape* y = context->GetOutputShape(0);
    y->SetDimNum(4);
    y->SetDim(0, x->GetDim(0));
    y->SetDim(1, w->GetDim(0));
    y->SetDim(2, x->GetDim(2) - w->GetDim(2) + 1);
    y->SetDim(3, x->GetDim(3) - w->GetDim(3) + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dMultiplyLeakyReluGeluCustom : public OpDef {
public:
    explicit Conv2dMultiplyLeakyReluGeluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("multiplier").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);

        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dMultiplyLeakyReluGeluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;
using namespace matmul;

using aType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using bType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using cType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using biasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

class Conv2dMulLreluGelu {
public:
    __aicore__ inline Conv2dMulLreluGelu() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR mul, GM_ADDR y, GM_ADDR usr,
                                const Conv2dMultiplyLeakyReluGeluCustomTilingData& tiling)
    {
        td = tiling;
        gemmK = td.cin * td.ks * td.ks;
        tileN = td.rowsPerTile * td.outW;
        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)bias);
        mulGm.SetGlobalBuffer((__gm__ float*)mul);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        uint64_t perCore = (uint64_t)gemmK * tileN + (uint64_t)td.cout * tileN;
        __gm__ float* mine = (__gm__ float*)usr + perCore * GetBlockIdx();
        colGm.SetGlobalBuffer(mine, (uint64_t)gemmK * tileN);
        cGm.SetGlobalBuffer(mine + (uint64_t)gemmK * tileN, (uint64_t)td.cout * tileN);

        uint32_t rowAlign = (td.outW + 7) / 8 * 8;
        pipe.InitBuffer(colQ, 2, td.rowsPerTile * rowAlign * sizeof(float));
        pipe.InitBuffer(epiIn, 2, td.epiChunk * sizeof(float));
        pipe.InitBuffer(epiOut, 2, td.epiChunk * sizeof(float));
        pipe.InitBuffer(tmpBuf, td.epiChunk * sizeof(float));
    }

    __aicore__ inline TPipe* Pipe() { return &pipe; }

    template <class MM>
    __aicore__ inline void Process(MM& mm)
    {
        for (uint32_t tile = GetBlockIdx(); tile < td.totalTiles; tile += GetBlockNum()) {
            uint32_t n = tile / td.tilesPerImage;
            uint32_t r0 = (tile % td.tilesPerImage) * td.rowsPerTile;
            uint32_t rows = (td.outH - r0 < td.rowsPerTile) ? (td.outH - r0) : td.rowsPerTile;
            uint32_t curN = rows * td.outW;

            Im2Col(n, r0, rows);
            PipeBarrier<PIPE_ALL>();

            // conv as GEMM: W[Cout, K] x col[K, curN]
            mm.SetOrgShape(td.cout, tileN, gemmK);
            mm.SetTensorA(wGm);
            mm.SetTensorB(colGm);
            mm.SetTail(td.cout, curN, gemmK);
            mm.IterateAll(cGm);
            mm.End();
            PipeBarrier<PIPE_ALL>();

            Epilogue(n, r0, curN);
            PipeBarrier<PIPE_ALL>();
        }
    }

private:
    // col[(ci,kh,kw), r*OW + ox] = x[n, ci, r0+r+kh, ox+kw]
    __aicore__ inline void Im2Col(uint32_t n, uint32_t r0, uint32_t rows)
    {
        uint32_t k = td.ks;
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        for (uint32_t ci = 0; ci < td.cin; ++ci) {
            uint64_t plane = (((uint64_t)n * td.cin + ci) * td.inH + r0) * td.inW;
            for (uint32_t kh = 0; kh < k; ++kh) {
                for (uint32_t kw = 0; kw < k; ++kw) {
                    LocalTensor<float> buf = colQ.AllocTensor<float>();
                    DataCopyExtParams ld{(uint16_t)rows, (uint32_t)(td.outW * sizeof(float)),
                                         (uint32_t)((td.inW - td.outW) * sizeof(float)), 0, 0};
                    DataCopyPad(buf, xGm[plane + (uint64_t)kh * td.inW + kw], ld, pad);
                    colQ.EnQue(buf);
                    buf = colQ.DeQue<float>();
                    uint32_t kRow = (ci * k + kh) * k + kw;
                    DataCopyExtParams stp{(uint16_t)rows, (uint32_t)(td.outW * sizeof(float)), 0, 0, 0};
                    DataCopyPad(colGm[(uint64_t)kRow * tileN], buf, stp);
                    colQ.FreeTensor(buf);
                }
            }
        }
    }

    // y = gelu(leaky_relu((conv + b) * mult))
    __aicore__ inline void Epilogue(uint32_t n, uint32_t r0, uint32_t curN)
    {
        uint64_t plane = (uint64_t)td.outH * td.outW;
        for (uint32_t co = 0; co < td.cout; ++co) {
            float b = bGm.GetValue(co);
            float s = mulGm.GetValue(co);
            uint64_t dst = ((uint64_t)n * td.cout + co) * plane + (uint64_t)r0 * td.outW;
            for (uint32_t off = 0; off < curN; off += td.epiChunk) {
                uint32_t len = (curN - off < td.epiChunk) ? (curN - off) : td.epiChunk;
                DataCopyExtParams cp{1, (uint32_t)(len * sizeof(float)), 0, 0, 0};
                DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                LocalTensor<float> in = epiIn.AllocTensor<float>();
                DataCopyPad(in, cGm[(uint64_t)co * tileN + off], cp, pad);
                epiIn.EnQue(in);
                in = epiIn.DeQue<float>();

                LocalTensor<float> o = epiOut.AllocTensor<float>();
                LocalTensor<float> t = tmpBuf.Get<float>();
                Adds(in, in, b, len);
                Muls(in, in, s, len);
                LeakyRelu(o, in, td.slope, len);
                // tanh-form gelu: o / (1 + exp(-1.5957691*(o + 0.044715 o^3)))
                Mul(t, o, o, len);
                Muls(t, t, 0.044715f, len);
                Adds(t, t, 1.0f, len);
                Mul(t, t, o, len);
                Muls(t, t, -1.5957691216f, len);
                Exp(t, t, len);
                Adds(t, t, 1.0f, len);
                Div(o, o, t, len);
                epiIn.FreeTensor(in);

                epiOut.EnQue(o);
                o = epiOut.DeQue<float>();
                DataCopyPad(yGm[dst + off], o, cp);
                epiOut.FreeTensor(o);
            }
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> colQ, epiIn;
    TQue<QuePosition::VECOUT, 2> epiOut;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, wGm, bGm, mulGm, yGm, colGm, cGm;
    Conv2dMultiplyLeakyReluGeluCustomTilingData td;
    uint32_t gemmK, tileN;
};

extern "C" __global__ __aicore__ void conv2d_multiply_leaky_relu_gelu_custom(
    GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR multiplier, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(td, tiling);
    GM_ADDR usr = GetUserWorkspace(workspace);
    Conv2dMulLreluGelu op;
    Matmul<aType, bType, cType, biasType> mm;
    op.Init(x, weight, bias, multiplier, y, usr, td);
    REGIST_MATMUL_OBJ(op.Pipe(), GetSysWorkSpacePtr(), mm, &td.mmTiling);
    op.Process(mm);
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_multiply_leaky_relu_gelu_impl_npu(const at::Tensor& x, const at::Tensor& weight,
                                                    const at::Tensor& bias, const at::Tensor& multiplier,
                                                    double negative_slope)
{
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), weight.size(0), x.size(2) - k + 1, x.size(3) - k + 1}, x.options());
    EXEC_NPU_CMD(aclnnConv2dMultiplyLeakyReluGeluCustom, x, weight, bias, multiplier, negative_slope, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_multiply_leaky_relu_gelu_custom", &conv2d_multiply_leaky_relu_gelu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_multiply_leaky_relu_gelu_custom", &conv2d_multiply_leaky_relu_gelu_impl_npu,
          "conv2d -> *multiplier -> leaky_relu -> gelu",
          py::arg("x"), py::arg("weight"), py::arg("bias"), py::arg("multiplier"),
          py::arg("negative_slope") = 0.01);
}
"""
