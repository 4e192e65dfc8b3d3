// A stage in a subdirectory, with no include of its own.
#pragma once

__aicore__ inline void Stage(int n)
{
    (void)n;
}
