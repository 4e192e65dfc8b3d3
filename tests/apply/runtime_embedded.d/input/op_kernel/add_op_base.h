// Constants of add_op; the trace point runtime goes here (apply embeds it
// before the include guard's #endif).
#ifndef ADD_OP_BASE_H
#define ADD_OP_BASE_H

#include "kernel_operator.h"

constexpr uint32_t ADD_OP_GROUPS = 4;

#endif // ADD_OP_BASE_H
