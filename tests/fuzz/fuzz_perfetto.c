/* Fuzz target for the Perfetto trace reader of `report` (protobuf walk,
 * interned names per sequence, track and label tables, statistics, the
 * views and their pages). */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_report.h"
#include "perfetto_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag diag;
	struct report_views *v;
	struct stats *s = fuzz_report_begin(&v, size & 1, &diag);

	(void)perfetto_looks_like_trace(data, size);
	fuzz_report_end(s, v, stats_read_perfetto_mem(s, "fuzz.pftrace", data, size, &diag) == 0);
	return 0;
}
