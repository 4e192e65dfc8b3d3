// Base header of the test operator: the trace point runtime.
#pragma once
#include <kernel_operator.h>
#include <moe_tracing.h>
