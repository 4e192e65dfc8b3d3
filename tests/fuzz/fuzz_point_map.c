/* Fuzz target for the point_map.json reader. */
#include <stdint.h>
#include <stdio.h>

#include "point_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct diag diag;

	if (!null)
		null = fopen("/dev/null", "w");
	diag_init(&diag, null, false);
	point_map_free(point_map_parse("fuzz.json", (const char *)data, size, &diag));
	return 0;
}
