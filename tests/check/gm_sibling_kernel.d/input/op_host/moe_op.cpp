// OpDef of MoeOp.
namespace ops {
class MoeOp : public OpDef {
public:
    explicit MoeOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED);
        this->Input("expert_ids").ParamType(REQUIRED);
        this->Input("weight").ParamType(REQUIRED);
        this->Output("y").ParamType(REQUIRED);
        this->Output("profiling_data").ParamType(REQUIRED);
    }
};
} // namespace ops
