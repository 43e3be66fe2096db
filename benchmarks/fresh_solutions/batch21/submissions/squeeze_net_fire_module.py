project_json_src='''
[
    {
        "op": "PointwiseMixReluCustom",
        "language": "cpp",
        "input_desc": [
            {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "weight", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]},
            {"name": "bias", "param_type": "required", "format": ["ND", "ND"], "type": ["float", "float16"]}
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
BEGIN_TILING_DATA_DEF(PointwiseMixReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inCh);
  TILING_DATA_FIELD_DEF(uint32_t, outCh);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);       // H * W
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // spatial elements per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tilesRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PointwiseMixReluCustom, PointwiseMixReluTilingData)
}
"""

host_operator_src="""
#include "pointwise_mix_relu_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_TILE = 8192;

// UB per tile: BUFFER_NUM * (inCh input slices + 1 output slice)
static uint32_t PickTile(uint64_t ub, uint32_t inCh, uint32_t spatial, uint32_t typeSize)
{
    uint32_t align = 32 / typeSize;
    uint64_t usable = ub - 16 * 1024;
    uint64_t perElem = static_cast<uint64_t>(BUFFER_NUM) * (inCh + 1) * typeSize;
    uint64_t t = usable / perElem;
    if (t > MAX_TILE) t = MAX_TILE;
    t = t / align * align;
    uint32_t spatialAligned = (spatial + align - 1) / align * align;
    if (t > spatialAligned) t = spatialAligned;
    return t == 0 ? align : static_cast<uint32_t>(t);
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    PointwiseMixReluTilingData td;
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();   // N, Cin, H, W
    const gert::Shape& ws = context->GetInputShape(1)->GetStorageShape();   // Cout, Cin[,1,1]
    uint32_t n = xs.GetDim(0);
    uint32_t cin = xs.GetDim(1);
    uint32_t spatial = 1;
    for (size_t d = 2; d < xs.GetDimNum(); ++d) spatial *= xs.GetDim(d);
    uint32_t cout = ws.GetDim(0);

    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ub = 0;
    plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    uint32_t coreNum = plat.GetCoreNumAiv();
    uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;

    uint32_t tile = PickTile(ub, cin, spatial, typeSize);
    uint32_t perImage = (spatial + tile - 1) / tile;
    uint32_t total = n * perImage;
    uint32_t cores = total < coreNum ? total : coreNum;
    if (cores == 0) cores = 1;

    td.set_batch(n);
    td.set_inCh(cin);
    td.set_outCh(cout);
    td.set_spatial(spatial);
    td.set_tileLen(tile);
    td.set_tilesPerImage(perImage);
    td.set_tilesPerCore(total / cores);
    td.set_tilesRemain(total % cores);

    context->SetBlockDim(cores);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    context->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* xs = context->GetInputShape(0);
    const gert::Shape* ws = context->GetInputShape(1);
    gert::Shape* ys = context->GetOutputShape(0);
    *ys = *xs;
    ys->SetDim(1, ws->GetDim(0));
    return GRAPH_SUCCESS;
}
static ge::graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}

namespace ops {
class PointwiseMixReluCustom : public OpDef {
public:
    explicit PointwiseMixReluCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("weight").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED)
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
OP_ADD(PointwiseMixReluCustom);
}
"""

kernel_src="""
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

// y[oc] = relu(bias[oc] + sum_ci w[oc, ci] * x[ci]) on one spatial tile
template <typename T>
struct ChannelMixer {
    __aicore__ static inline void Run(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                      const GlobalTensor<T>& w, T b, uint32_t oc, uint32_t cin,
                                      uint32_t stride, uint32_t len)
    {
        Muls(dst, src, w.GetValue(oc * cin), len);
        for (uint32_t ci = 1; ci < cin; ++ci) {
            Axpy(dst, src[ci * stride], w.GetValue(oc * cin + ci), len);
        }
        Adds(dst, dst, b, len);
        Relu(dst, dst, len);
    }
};

template <typename T>
class PointwiseMixReluKernel {
public:
    __aicore__ inline PointwiseMixReluKernel() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y,
                                const PointwiseMixReluTilingData& td)
    {
        cin = td.inCh;
        cout = td.outCh;
        spatial = td.spatial;
        tileLen = td.tileLen;
        tilesPerImage = td.tilesPerImage;
        uint32_t blk = GetBlockIdx();
        tileCount = td.tilesPerCore + (blk < td.tilesRemain ? 1 : 0);
        tileStart = blk * td.tilesPerCore + (blk < td.tilesRemain ? blk : td.tilesRemain);

        xGm.SetGlobalBuffer((__gm__ T*)x);
        wGm.SetGlobalBuffer((__gm__ T*)w);
        bGm.SetGlobalBuffer((__gm__ T*)b);
        yGm.SetGlobalBuffer((__gm__ T*)y);
        // input buffer holds all cin slices of one tile back to back
        pipe.InitBuffer(inQue, BUFFER_NUM, cin * tileLen * sizeof(T));
        pipe.InitBuffer(outQue, BUFFER_NUM, tileLen * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tileCount; ++t) {
            uint32_t g = tileStart + t;
            uint32_t img = g / tilesPerImage;
            uint32_t off = (g - img * tilesPerImage) * tileLen;
            uint32_t len = (spatial - off) < tileLen ? (spatial - off) : tileLen;
            LoadTile(img, off, len);
            MixAndStore(img, off, len);
        }
    }

private:
    __aicore__ inline void LoadTile(uint32_t img, uint32_t off, uint32_t len)
    {
        LocalTensor<T> xl = inQue.AllocTensor<T>();
        uint64_t base = static_cast<uint64_t>(img) * cin * spatial + off;
        // strided gather of cin slices in one descriptor; each UB row is rounded up to 32B,
        // so the dst gap is counted from the aligned length (in 32B blocks)
        uint32_t alignElems = 32 / sizeof(T);
        uint32_t lenAligned = (len + alignElems - 1) / alignElems * alignElems;
        DataCopyExtParams prm{static_cast<uint16_t>(cin), static_cast<uint32_t>(len * sizeof(T)),
                              static_cast<uint32_t>((spatial - len) * sizeof(T)),
                              static_cast<uint32_t>((tileLen - lenAligned) / alignElems), 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(xl, xGm[base], prm, pad);
        inQue.EnQue(xl);
    }

    __aicore__ inline void MixAndStore(uint32_t img, uint32_t off, uint32_t len)
    {
        LocalTensor<T> xl = inQue.DeQue<T>();
        uint64_t outBase = static_cast<uint64_t>(img) * cout * spatial + off;
        // compute over the 32B-rounded length; padding lanes are never stored
        uint32_t alignElems = 32 / sizeof(T);
        uint32_t calcLen = (len + alignElems - 1) / alignElems * alignElems;
        for (uint32_t oc = 0; oc < cout; ++oc) {
            LocalTensor<T> yl = outQue.AllocTensor<T>();
            ChannelMixer<T>::Run(yl, xl, wGm, bGm.GetValue(oc), oc, cin, tileLen, calcLen);
            outQue.EnQue(yl);
            yl = outQue.DeQue<T>();
            DataCopyExtParams prm{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
            DataCopyPad(yGm[outBase + static_cast<uint64_t>(oc) * spatial], yl, prm);
            outQue.FreeTensor(yl);
        }
        inQue.FreeTensor(xl);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQue;
    GlobalTensor<T> xGm, wGm, bGm, yGm;
    uint32_t cin, cout, spatial, tileLen, tilesPerImage;
    uint32_t tileStart, tileCount;
};

extern "C" __global__ __aicore__ void pointwise_mix_relu_custom(GM_ADDR x, GM_ADDR weight, GM_ADDR bias,
                                                                GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    PointwiseMixReluKernel<DTYPE_X> op;
    op.Init(x, weight, bias, y, td);
    op.Process();
}
"""

python_bind_src="""
#include <torch/library.h>
#include <torch/csrc/autograd/custom_function.h>
#include "pytorch_npu_helper.hpp"
#include <torch/extension.h>

// 1x1 conv + bias + ReLU; weight may be (Cout, Cin, 1, 1) or (Cout, Cin)
at::Tensor pointwise_mix_relu_impl_npu(const at::Tensor& x, const at::Tensor& weight, const at::Tensor& bias)
{
    at::Tensor xc = x.contiguous();
    at::Tensor w2 = weight.reshape({weight.size(0), weight.size(1)}).to(x.scalar_type()).contiguous();
    at::Tensor bc = bias.to(x.scalar_type()).contiguous();
    at::Tensor y = at::empty({x.size(0), w2.size(0), x.size(2), x.size(3)}, x.options());
    EXEC_NPU_CMD(aclnnPointwiseMixReluCustom, xc, w2, bc, y);
    return y;
}

at::Tensor fire_module_forward(const at::Tensor& x,
                               const at::Tensor& sq_w, const at::Tensor& sq_b,
                               const at::Tensor& e1_w, const at::Tensor& e1_b,
                               const at::Tensor& e3_w, const at::Tensor& e3_b)
{
    at::Tensor s = pointwise_mix_relu_impl_npu(x, sq_w, sq_b);
    at::Tensor a = pointwise_mix_relu_impl_npu(s, e1_w, e1_b);
    at::Tensor b = at::relu(at::conv2d(s, e3_w, e3_b, 1, 1));
    return at::cat({a, b}, 1);
}

TORCH_LIBRARY_IMPL(myops, PrivateUse1, m) {
    m.impl("pointwise_mix_relu_custom", &pointwise_mix_relu_impl_npu);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("pointwise_mix_relu_custom", &pointwise_mix_relu_impl_npu, "1x1 conv + bias + relu");
    m.def("fire_module_forward", &fire_module_forward, "SqueezeNet fire module");
}
"""
