/* The report's output formats by name (gate_out.h): each writer is its
 * gate_out_<format>.c. */
#include <string.h>

#include "gate_out.h"

static const struct gate_format formats[] = {
	{ "text", gate_out_text },
	{ "json", gate_out_json },
	{ "sarif", gate_out_sarif },
	{ "junit", gate_out_junit },
};

const struct gate_format *gate_format_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

