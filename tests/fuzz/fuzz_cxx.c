/* Fuzz target for the C++ scanner (libFuzzer style): tokenizer, preprocessor
 * layer and outline on arbitrary bytes; the outline must satisfy its
 * structural invariants and print as JSON. `./configure --enable-fuzzing`
 * links it with the engine as tests/fuzz/engine_cxx (tests/fuzz/README);
 * linked with fuzz_driver.c it is fuzz_cxx_smoke, which `make check` runs
 * over the seeds in tests/scan. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "cxx_dump.h"
#include "cxx_outline.h"
#include "cxx_pp.h"
#include "src_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct src_file *f = src_file_from_buffer("fuzz.cpp", (const char *)data, size);
	struct cxx_macro_table *mt = cxx_macros_new();
	struct cxx_outline *ol;
	char why[256];
	cJSON *j;

	/* one input defines nothing, the next sees what the first assumed */
	for (int round = 0; round < 2; round++) {
		ol = cxx_outline_build(f, mt, NULL);
		if (cxx_outline_validate(ol, why, sizeof(why)) < 0) {
			fprintf(stderr, "fuzz_cxx: invalid outline: %s\n", why);
			abort();
		}
		j = cxx_outline_json(ol, "fuzz.cpp");
		cJSON_Delete(j);
		cxx_outline_free(ol);
	}
	cxx_macros_free(mt);
	src_file_free(f);
	return 0;
}
