#include <cmath>
#include "adam_step_update_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static constexpr uint32_t MIN_CORE_LEN = 1024;

ge::graphStatus AdamStepUpdateTilingFunc(gert::TilingContext *context)
{
    auto plat = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    bool fp16 = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;

    const gert::RuntimeAttrs *attrs = context->GetAttrs();
    float lr = *attrs->GetAttrPointer<float>(0);
    float b1 = *attrs->GetAttrPointer<float>(1);
    float b2 = *attrs->GetAttrPointer<float>(2);
    float eps = *attrs->GetAttrPointer<float>(3);
    int64_t step = *attrs->GetAttrPointer<int64_t>(4);
    if (step < 1) {
        return ge::GRAPH_FAILED;
    }

    // the bias corrections depend only on attributes: resolve them once on the host
    double bc1 = 1.0 - std::pow(static_cast<double>(b1), static_cast<double>(step));
    double bc2 = 1.0 - std::pow(static_cast<double>(b2), static_cast<double>(step));

    uint32_t cores = plat.GetCoreNumAiv();
    uint32_t coreLen = (total + cores - 1) / cores;
    coreLen = std::max(coreLen, MIN_CORE_LEN);
    coreLen = (coreLen + 127) / 128 * 128;
    uint32_t used = (total + coreLen - 1) / coreLen;

    AdamStepUpdateTilingData td;
    td.set_totalLen(total);
    td.set_coreLen(coreLen);
    td.set_tileLen(fp16 ? 2048 : 2560);   // 4 inputs double buffered + fp32 temps
    td.set_beta1(b1);
    td.set_beta2(b2);
    td.set_oneMinusBeta1(1.0f - b1);
    td.set_oneMinusBeta2(1.0f - b2);
    td.set_stepSize(static_cast<float>(lr / bc1));
    td.set_invBias2(static_cast<float>(1.0 / bc2));
    td.set_eps(eps);

    context->SetBlockDim(used == 0 ? 1 : used);
    context->SetTilingKey(fp16 ? 1 : 0);
    td.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(td.GetDataSize());
    size_t *ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}
