project_json_src='''
[
    {
        "op": "Conv2dMinTanhTanhCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "weight", "param_type": "required", "format": ["ND"], "type": ["float"]},
            {"name": "bias", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ],
        "output_desc": [
            {"name": "y", "param_type": "required", "format": ["ND"], "type": ["float"]}
        ]
    }
]
'''

host_tiling_src="""
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dMinTanhTanhCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalJobs);
  TILING_DATA_FIELD_DEF(uint32_t, colBytes);
  TILING_DATA_FIELD_DEF(uint32_t, convBytes);
  TILING_DATA_FIELD_DEF(uint32_t, pixBlock);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dMinTanhTanhCustom, Conv2dMinTanhTanhCustomTilingData)
}
"""

host_operator_src="""
#include "conv2d_min_tanh_tanh_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static inline uint32_t Align512(uint64_t v) { return (uint32_t)((v + 511) / 512 * 512); }

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    auto xs = context->GetInputShape(0)->GetStorageShape();
    auto ws = context->GetInputShape(1)->GetStorageShape();
    uint32_t B = xs.GetDim(0), C = xs.GetDim(1), H = xs.GetDim(2), W = xs.GetDim(3);
    uint32_t CO = ws.GetDim(0), K = ws.GetDim(2);
    uint32_t OH = H - K + 1, OW = W - K + 1;

    uint32_t rows = 8;
    if (rows > OH) rows = OH;
    uint32_t chunks = (OH + rows - 1) / rows;
    uint32_t kdim = C * K * K;
    uint32_t chunkPix = rows * OW;

    uint32_t aic = plat.GetCoreNumAic();
    uint32_t jobs = B * chunks;
    uint32_t blocks = aic < jobs ? aic : jobs;

    Conv2dMinTanhTanhCustomTilingData td;
    td.set_batch(B); td.set_cin(C); td.set_height(H); td.set_width(W);
    td.set_cout(CO); td.set_ksize(K); td.set_outH(OH); td.set_outW(OW);
    td.set_rowsPerChunk(rows); td.set_chunksPerImage(chunks); td.set_totalJobs(jobs);
    td.set_colBytes(Align512((uint64_t)kdim * chunkPix * sizeof(float)));
    td.set_convBytes(Align512((uint64_t)chunkPix * CO * sizeof(float)));
    td.set_pixBlock(128);

    // conv[pix, CO] = col^T[pix, kdim] * W^T[kdim, CO] + bias
    matmul_tiling::MatmulApiTiling mm(plat);
    mm.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT, true);
    mm.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    mm.SetShape(chunkPix, CO, kdim);
    mm.SetOrgShape(chunkPix, CO, kdim);
    mm.SetBias(true);
    mm.SetBufferSpace(-1, -1, -1);
    if (mm.GetTiling(td.mmTiling) == -1) {
        return ge::GRAPH_FAILED;
    }

    context->SetBlockDim(blocks);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t* wsz = context->GetWorkspaceSizes(1);
    wsz[0] = plat.GetLibApiWorkSpaceSize() + (size_t)(td.get_colBytes() + td.get_convBytes()) * blocks * 2;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    int64_t k = ws->GetDim(2);
    ys->SetDimNum(4);
    ys->SetDim(0, xs->GetDim(0));
    ys->SetDim(1, 1);
    ys->SetDim(2, xs->GetDim(2) - k + 1);
    ys->SetDim(3, xs->GetDim(3) - k + 1);
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return ge::GRAPH_SUCCESS;
}
}

namespace ops {
class Conv2dMinTanhTanhCustom : public OpDef {
public:
    explicit Conv2dMinTanhTanhCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dMinTanhTanhCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

using A_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
using B_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float, true>;
using C_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;
using BIAS_T = MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

class Conv2dMinTanhTanh {
public:
    __aicore__ inline Conv2dMinTanhTanh() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR bias, GM_ADDR y, GM_ADDR usr,
                                const Conv2dMinTanhTanhCustomTilingData& t)
    {
        B = t.batch; C = t.cin; H = t.height; W = t.width;
        CO = t.cout; K = t.ksize; OH = t.outH; OW = t.outW;
        rows = t.rowsPerChunk; chunks = t.chunksPerImage; jobs = t.totalJobs;
        pixBlock = t.pixBlock;
        kdim = C * K * K;

        xGm.SetGlobalBuffer((__gm__ float*)x);
        wGm.SetGlobalBuffer((__gm__ float*)w);
        bGm.SetGlobalBuffer((__gm__ float*)bias);
        yGm.SetGlobalBuffer((__gm__ float*)y);

        uint32_t idx = AscendC::GetBlockIdx();
        __gm__ uint8_t* mine = (__gm__ uint8_t*)usr + (uint64_t)(t.colBytes + t.convBytes) * idx;
        colGm.SetGlobalBuffer((__gm__ float*)mine);
        convGm.SetGlobalBuffer((__gm__ float*)(mine + t.colBytes));

        uint32_t rowBuf = (W + 7) / 8 * 8;
        pipe.InitBuffer(rowQ, 2, rowBuf * sizeof(float));
        pipe.InitBuffer(convQ, 2, pixBlock * CO * sizeof(float));
        pipe.InitBuffer(outQ, 2, pixBlock * sizeof(float));
        pipe.InitBuffer(tmpBuf, pixBlock * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t num = AscendC::GetBlockNum();
        for (uint32_t job = idx; job < jobs; job += num) {
            uint32_t b = job / chunks;
            uint32_t r0 = (job % chunks) * rows;
            uint32_t nr = (r0 + rows <= OH) ? rows : OH - r0;
            uint32_t npix = nr * OW;

            Im2Col(b, r0, nr);
            AscendC::PipeBarrier<PIPE_ALL>();

            mm.SetOrgShape(npix, CO, kdim);
            mm.SetSingleShape(npix, CO, kdim);
            mm.SetTensorA(colGm, true);
            mm.SetTensorB(wGm, true);
            mm.SetBias(bGm);
            mm.IterateAll(convGm);
            mm.End();
            AscendC::PipeBarrier<PIPE_ALL>();

            MinTanh(b, r0, npix);
        }
    }

    Matmul<A_T, B_T, C_T, BIAS_T> mm;
    AscendC::TPipe pipe;

private:
    // col[(c,i,j)][p] = x[b, c, oh + i, ow + j], p = (oh - r0) * OW + ow
    __aicore__ inline void Im2Col(uint32_t b, uint32_t r0, uint32_t nr)
    {
        uint32_t npix = nr * OW;
        for (uint32_t c = 0; c < C; c++) {
            uint64_t plane = ((uint64_t)b * C + c) * H * W;
            for (uint32_t i = 0; i < K; i++) {
                for (uint32_t j = 0; j < K; j++) {
                    uint64_t dstRow = (uint64_t)((c * K + i) * K + j) * npix;
                    for (uint32_t r = 0; r < nr; r++) {
                        AscendC::LocalTensor<float> t = rowQ.AllocTensor<float>();
                        AscendC::DataCopyExtParams in{1, (uint32_t)(OW * sizeof(float)), 0, 0, 0};
                        AscendC::DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
                        AscendC::DataCopyPad(t, xGm[plane + (uint64_t)(r0 + r + i) * W + j], in, pad);
                        rowQ.EnQue(t);
                        t = rowQ.DeQue<float>();
                        AscendC::DataCopyPad(colGm[dstRow + (uint64_t)r * OW], t, in);
                        rowQ.FreeTensor(t);
                    }
                }
            }
        }
    }

    // conv rows are [pix, CO]; min over CO, then tanh twice
    __aicore__ inline void MinTanh(uint32_t b, uint32_t r0, uint32_t npix)
    {
        uint64_t outBase = (uint64_t)b * OH * OW + (uint64_t)r0 * OW;
        for (uint32_t p0 = 0; p0 < npix; p0 += pixBlock) {
            uint32_t cnt = (npix - p0) < pixBlock ? (npix - p0) : pixBlock;

            AscendC::LocalTensor<float> cv = convQ.AllocTensor<float>();
            AscendC::DataCopy(cv, convGm[(uint64_t)p0 * CO], cnt * CO);
            convQ.EnQue(cv);
            cv = convQ.DeQue<float>();

            AscendC::LocalTensor<float> o = outQ.AllocTensor<float>();
            // one repeat = 64 floats = one pixel's channels
            AscendC::WholeReduceMin<float>(o, cv, CO, cnt, 1, 1, CO / 8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
            convQ.FreeTensor(cv);
            AscendC::PipeBarrier<PIPE_V>();
            Tanh(o, cnt);
            Tanh(o, cnt);
            outQ.EnQue(o);

            o = outQ.DeQue<float>();
            AscendC::DataCopyExtParams op{1, (uint32_t)(cnt * sizeof(float)), 0, 0, 0};
            AscendC::DataCopyPad(yGm[outBase + p0], o, op);
            outQ.FreeTensor(o);
        }
    }

    // tanh(v) = 1 - 2 / (exp(2v) + 1)
    __aicore__ inline void Tanh(AscendC::LocalTensor<float>& v, uint32_t cnt)
    {
        AscendC::LocalTensor<float> t = tmpBuf.Get<float>();
        AscendC::Muls(t, v, 2.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Exp(t, t, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(t, t, 1.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Duplicate(v, 2.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Div(v, v, t, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Muls(v, v, -1.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
        AscendC::Adds(v, v, 1.0f, cnt);
        AscendC::PipeBarrier<PIPE_V>();
    }

    AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 2> rowQ;
    AscendC::TQue<AscendC::TPosition::VECIN, 2> convQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 2> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<float> xGm, wGm, bGm, yGm, colGm, convGm;
    uint32_t B, C, H, W, CO, K, OH, OW;
    uint32_t rows, chunks, jobs, pixBlock, kdim;
};

extern "C" __global__ __aicore__ void conv2d_min_tanh_tanh_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y,
                                                                  GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GM_ADDR usr = AscendC::GetUserWorkspace(workspace);
    if (usr == nullptr) {
        return;
    }
    Conv2dMinTanhTanh op;
    REGIST_MATMUL_OBJ(&op.pipe, GetSysWorkSpacePtr(), op.mm, &t.mmTiling);
    op.Init(x, weight, bias, y, usr, t);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

at::Tensor conv2d_min_tanh_tanh_custom_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    int64_t k = weight.size(2);
    at::Tensor y = at::empty({x.size(0), 1, x.size(2) - k + 1, x.size(3) - k + 1}, x.options());
    EXEC_NPU_CMD(aclnnConv2dMinTanhTanhCustom, x, weight, bias, y);
    return y;
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("conv2d_min_tanh_tanh_custom", &conv2d_min_tanh_tanh_custom_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("conv2d_min_tanh_tanh_custom", &conv2d_min_tanh_tanh_custom_impl_npu, "conv2d -> min(dim=1) -> tanh -> tanh");
}
"""
