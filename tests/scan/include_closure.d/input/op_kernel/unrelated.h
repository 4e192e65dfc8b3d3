// not included by anyone: a FILE scan does not reach it
__aicore__ inline void Unused() {}
