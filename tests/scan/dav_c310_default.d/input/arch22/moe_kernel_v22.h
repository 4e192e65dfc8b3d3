#pragma once
struct MoeKernelV22 { __aicore__ inline void Process() { UbCompute(); } };
