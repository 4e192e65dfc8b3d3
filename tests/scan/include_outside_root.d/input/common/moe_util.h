#pragma once
__aicore__ inline void Run(GM_ADDR x) {}
