/* Fuzz target for the Chrome trace JSON reader of `report` (streaming JSON
 * walk, track and label tables, statistics, the views and their pages). */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag diag;
	struct report_views *v;
	struct stats *s = fuzz_report_begin(&v, size & 1, &diag);

	fuzz_report_end(s, v, stats_read_chrome_mem(s, "fuzz.json", (const char *)data, size, &diag) == 0);
	return 0;
}
