// Test operator: helpers of one SoC.
#pragma once
inline int SocHelper(int x)
{
    return x + 1;
}
