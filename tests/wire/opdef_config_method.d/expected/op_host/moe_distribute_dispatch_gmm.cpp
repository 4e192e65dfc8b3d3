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
// Per-SoC configs built in member functions: one defined in the class (the
// kirin form of dequant_swiglu_quant), one defined after it; a config left
// in a comment, which is not read.
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
        this->AICore().AddConfig("ascend910_93");

        OpAICoreConfig config_kirin = GetKirinCoreConfig();
        this->AICore().AddConfig("kirinx90", config_kirin);
        this->AICore().AddConfig("ascend310p", Get310pCoreConfig());
        // OpAICoreConfig config_950;
        // config_950.Output("y")
        //     .ParamType(REQUIRED)
        //     .DataType({ge::DT_FLOAT, ge::DT_FLOAT});
        // this->AICore().AddConfig("ascend950", config_950);
    }

private:
    OpAICoreConfig GetKirinCoreConfig() const
    {
        OpAICoreConfig config_kirin;
        config_kirin.DynamicCompileStaticFlag(true)
            .DynamicShapeSupportFlag(true);
        config_kirin.Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_INT32})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Input("expert_ids")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT32, ge::DT_INT32})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Input("weight1")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_INT32})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Input("weight2")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_INT32})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Input("scale")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT16})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Output("expert_token_nums")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format(
                {ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat(
                {ge::FORMAT_ND, ge::FORMAT_ND});
        config_kirin.Output("profiling_data")
            .ParamType(REQUIRED)
            .DataType({ge::DT_INT64, ge::DT_INT64})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
        return config_kirin;
    }
    OpAICoreConfig Get310pCoreConfig() const;
};

OpAICoreConfig MoeDistributeDispatchGmm::Get310pCoreConfig() const
{
    OpAICoreConfig cfg;
    cfg.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    cfg.Input("expert_ids").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
    cfg.Input("weight1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    cfg.Input("weight2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    cfg.Input("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    cfg.Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    cfg.Output("expert_token_nums").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}); cfg.Output("profiling_data").ParamType(REQUIRED).DataType({ge::DT_INT64}).Format({ge::FORMAT_ND}); // last
    return cfg;
}
OP_ADD(MoeDistributeDispatchGmm);
} // namespace ops
