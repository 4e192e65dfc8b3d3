// OpDef of MoeOp.
namespace ops {
class MoeOp : public OpDef {
public:
    explicit MoeOp(const char *name) : OpDef(name)
    {
        this->Input("x1").ParamType(REQUIRED);
        this->Input("x2").ParamType(REQUIRED);
        this->Output("y").ParamType(REQUIRED);
        this->Output("profiling_data").ParamType(REQUIRED);
    }
};
} // namespace ops
