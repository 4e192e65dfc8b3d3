#include "op_base.h"

class MoeOp {
public:
    void Init(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {}
    void Process()
    {
        MoeTracing(TRACE_POINT("processing", "B"));
        MoeTracing(TRACE_POINT("processing", "E"));
    }
};
