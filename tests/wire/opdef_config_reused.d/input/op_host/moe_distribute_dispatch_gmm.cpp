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
// One config variable registered for one SoC, then declared anew for
// another (the mat_mul_v3 form): each registration takes a copy of what the
// variable holds then, so each round needs the profiling output, with as
// many entries as that round's lists.
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
        this->Output("expert_token_nums").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::MoeDistributeDispatchGmmTilingFunc);
        OpAICoreConfig aicConfig;
        aicConfig.DynamicCompileStaticFlag(true)
                .DynamicShapeSupportFlag(true);
        this->AICore().AddConfig("ascend910b", aicConfig);
        aicConfig.Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_FRACTAL_NZ, ge::FORMAT_ND});
        aicConfig.Input("expert_ids")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Input("weight1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_FRACTAL_NZ, ge::FORMAT_FRACTAL_NZ});
        aicConfig.Input("weight2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_FRACTAL_NZ, ge::FORMAT_FRACTAL_NZ});
        aicConfig.Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format({ge::FORMAT_FRACTAL_NZ, ge::FORMAT_ND});
        aicConfig.Output("expert_token_nums")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().AddConfig("ascend310p", aicConfig);
        aicConfig.Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Input("expert_ids")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Input("weight1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Input("weight2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.Output("expert_token_nums")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        aicConfig.ExtendCfgInfo("opFile.value", "moe_distribute_dispatch_gmm_apt");
        this->AICore().AddConfig("ascend910_95", aicConfig);
    }
};
OP_ADD(MoeDistributeDispatchGmm);
} // namespace ops
