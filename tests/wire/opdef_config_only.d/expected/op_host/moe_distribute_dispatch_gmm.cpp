// OpDef and tiling function of MoeDistributeDispatchGmm (CANN custom operator, op_host side).
// Outputs: y, expert_token_nums.
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "moe_distribute_dispatch_gmm_tiling.h"

namespace optiling {
constexpr uint32_t INPUT_X = 0;
constexpr uint32_t INPUT_EXPERT_IDS = 1;
constexpr uint32_t INPUT_WEIGHT1 = 2;
constexpr size_t SYS_WORKSPACE_SIZE = 16 * 1024 * 1024;

static ge::graphStatus MoeDistributeDispatchGmmTilingFunc(gert::TilingContext *context)
{
    const gert::Shape &xShape = context->GetInputShape(INPUT_X)->GetStorageShape();
    const gert::Shape &w1Shape = context->GetInputShape(INPUT_WEIGHT1)->GetStorageShape();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    MoeDistributeDispatchGmmTilingData *tiling =
        context->GetTilingData<MoeDistributeDispatchGmmTilingData>();
    if (!ComputeMoeDistributeDispatchGmmTiling(
            (uint32_t)xShape.GetDim(0), (uint32_t)xShape.GetDim(1), (uint32_t)w1Shape.GetDim(2),
            (uint32_t)w1Shape.GetDim(0), platform.GetCoreNumAic(), *tiling)) {
        return ge::GRAPH_FAILED;
    }
    context->SetBlockDim(tiling->blockDim);
    context->SetTilingKey(0);
    size_t *workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = SYS_WORKSPACE_SIZE + tiling->workspaceSize;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
namespace ops {
// The inputs and outputs are declared on the AI Core config alone, as
// flash_attention_score does: no this->Input / this->Output chain.
class MoeDistributeDispatchGmm : public OpDef {
public:
    explicit MoeDistributeDispatchGmm(const char *name) : OpDef(name)
    {
        OpAICoreConfig aicore_config;
        aicore_config.Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
            .AutoContiguous();
        aicore_config.Input("expert_ids")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        aicore_config.Input("weight1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        aicore_config.Input("weight2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        aicore_config.Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        aicore_config.Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        aicore_config.Output("expert_token_nums")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        aicore_config.Output("profiling_data")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        // aicore_config.Output("old_stats").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
        /* aicore_config.Output("debug")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32}); */

        aicore_config.DynamicCompileStaticFlag(true)
            .DynamicRankSupportFlag(true)
            .DynamicShapeSupportFlag(true)
            .ExtendCfgInfo("coreType.value", "AiCore");
        this->AICore().SetTiling(optiling::MoeDistributeDispatchGmmTilingFunc);
        this->AICore().AddConfig("ascend910b", aicore_config);
        this->AICore().AddConfig("ascend910_93", aicore_config);
    }
};
OP_ADD(MoeDistributeDispatchGmm);
} // namespace ops
