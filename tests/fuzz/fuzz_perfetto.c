/* Fuzz target for the Perfetto trace reader of `report` (protobuf walk,
 * interned names per sequence, track and label tables, statistics). */
#include <stdint.h>
#include <stdio.h>

#include "collect_stats.h"
#include "perfetto_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct diag diag;
	struct stats *s = stats_new();
	size_t n;

	if (!null)
		null = fopen("/dev/null", "w");
	diag_init(&diag, null, false);
	(void)perfetto_looks_like_trace(data, size);
	if (stats_read_perfetto_mem(s, "fuzz.pftrace", data, size, &diag) == 0)
		stats_rows(s, &n);
	stats_free(s);
	return 0;
}
