// A helper with no trace point.
#pragma once
#include <kernel_operator.h>

__aicore__ inline void Helper()
{
}
