#pragma once
__aicore__ inline void Good() { A(); }
__aicore__ inline void Broken()
{
    if (x) {
        B();
}
