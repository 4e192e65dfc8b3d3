// A helper whose braces do not balance: apply must refuse, not skip it.
#pragma once

__aicore__ inline void Compute(int n)
{
    if (n > 0) {
        n--;
}
