#pragma once
#define ENABLE_MOE_PROFILING 1
#define PROF_SIZE_PER_CORE 2048
constexpr uint16_t SYNC_AIV_AIC_FLAG = 8;
