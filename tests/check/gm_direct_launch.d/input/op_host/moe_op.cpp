// OpDef of MoeOp: the tiling context of a directly launched kernel.
namespace ops {
class MoeOp : public OpDef {
public:
    explicit MoeOp(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED);
        this->Input("expert_ids").ParamType(REQUIRED);
        this->Output("y").ParamType(REQUIRED);
    }
};
} // namespace ops
