// Tab-indented kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
	__aicore__ inline void Process()
	{
		for (int groupIdx = 0; groupIdx < 2; groupIdx++)
			n_ += groupIdx;
		if (n_ > 1)
			return;
		n_ = 0;
	}

	int n_ = 0;
};
