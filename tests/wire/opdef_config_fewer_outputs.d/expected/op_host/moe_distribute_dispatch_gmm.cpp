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
// A per-SoC config that declares fewer outputs than the op: wire does not
// guess where the profiling output goes in it; the gate finds it missing.
class MoeDistributeDispatchGmm : public OpDef {
public:
    explicit MoeDistributeDispatchGmm(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("expert_ids").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        this->Input("weight1").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("weight2").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("expert_token_nums")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND});
        this->Output("profiling_data")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64})
            .Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::MoeDistributeDispatchGmmTilingFunc);
        this->AICore().AddConfig("ascend910b");

        OpAICoreConfig config_310p;
        config_310p.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        config_310p.Input("expert_ids").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
        config_310p.Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().AddConfig("ascend310p", config_310p);
    }
};
OP_ADD(MoeDistributeDispatchGmm);
} // namespace ops
