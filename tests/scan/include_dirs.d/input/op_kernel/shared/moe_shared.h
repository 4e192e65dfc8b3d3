#pragma once
__aicore__ inline void Load(GM_ADDR x) {}
