#pragma once
struct MoeKernelV35 { __aicore__ inline void Process() { RegBaseCompute(); } };
