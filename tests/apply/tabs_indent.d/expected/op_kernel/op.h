// Tab-indented kernel class.
#pragma once
#include "op_base.h"

class Op {
public:
	__aicore__ inline void Process()
	{
		MoeTracing(TRACE_POINT("processing", "B")); // autotrace
		for (int groupIdx = 0; groupIdx < 2; groupIdx++) { // autotrace
			MoeTracing(TRACE_POINT("group", "B"), groupIdx); // autotrace
			n_ += groupIdx;
			MoeTracing(TRACE_POINT("group", "E"), groupIdx); // autotrace
		} // autotrace
		if (n_ > 1) { // autotrace
			MoeTracing(TRACE_POINT("processing", "E")); // autotrace
			return;
		} // autotrace
		n_ = 0;
		MoeTracing(TRACE_POINT("processing", "E")); // autotrace
	}

	int n_ = 0;
};
