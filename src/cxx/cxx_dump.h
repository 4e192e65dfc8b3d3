/* Printing an outline: as JSON (stable key order; byte ranges as [start, end]
 * plus the 1-based line of the start) or as an indented, readable text. */
#ifndef AUTOTRACE_CXX_DUMP_H
#define AUTOTRACE_CXX_DUMP_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "cxx_outline.h"

/* Writes the outline of one file as a JSON object, streaming, laid out as
 * cJSON_Print would; lines after the first are indented by `indent` tabs. */
void cxx_outline_write_json(FILE *out, const struct cxx_outline *ol, const char *path, int indent);

/* The same object as a cJSON tree (caller frees with cJSON_Delete), or NULL
 * when out of memory. Slower: for callers that want to edit or query it. */
cJSON *cxx_outline_json(const struct cxx_outline *ol, const char *path);

/* The outline as text, one line per item, statements indented by nesting. */
void cxx_outline_text(FILE *out, const struct cxx_outline *ol, const char *path);

#endif
