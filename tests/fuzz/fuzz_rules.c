/* Fuzz target for the rules language: lexer, parser, decoder, regex and
 * template checks, and the JSON dump of what loads. Includes resolve nowhere
 * (no rules directory), so every input stands alone. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "rule_dump.h"
#include "rule_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct diag diag;
	struct rule_policy *p;

	if (!null)
		null = fopen("/dev/null", "w");
	diag_init(&diag, null, false);
	p = rule_load_buffer("fuzz.rules", (const char *)data, size, NULL, &diag);
	if (p) {
		cJSON *json = rule_dump_json(p);
		char *text = cJSON_PrintUnformatted(json);
		cJSON_free(text);
		cJSON_Delete(json);
		rule_policy_free(p);
	}
	return 0;
}
