/* `collect` as a library step: the rules, the point map and the dumps
 * loaded, the trace written to its file all or nothing (trace_out.h), every
 * record accounted for. cmd_collect.c turns argv into collect_file_opts and
 * prints the result's accounting. */
#ifndef AUTOTRACE_COLLECT_FILE_H
#define AUTOTRACE_COLLECT_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "collect_run.h"

/* JSON traces above this size fail to load in the viewers (the Perfetto UI
 * and chrome://tracing take a few hundred MB at most): a warning. */
#define COLLECT_JSON_LOAD_LIMIT (256ull << 20)

struct collect_file_opts {
	char **dumps;                 /* DUMP... as given (files or directories) */
	size_t ndumps;
	const char *map_path;         /* -m, or NULL: next to the first dump */
	const char *rules_path;       /* --rules, or NULL: found from "." */
	const char *out_path;         /* -o, or NULL: trace.json / trace.perfetto-trace */
	const struct trace_ops *ops;  /* the format */
	struct collect_opts run;      /* the filters and switches; policy, map and
	                                 map_path are set here */
};

struct collect_file_result {
	char *out_path;               /* the file written */
	uint64_t bytes;
	struct collect_counts counts;
};

/* 0 when the trace is written, or -1 after reporting why (nothing left at
 * the output path then; -o naming an input is refused). */
int collect_file(const struct collect_file_opts *o, struct collect_file_result *r, struct diag *diag);
void collect_file_result_release(struct collect_file_result *r);

/* -o naming one of the inputs would replace it with the output (`what`:
 * "the trace", "the report"): true, reported, when `out` is the same file
 * as `trace` (a trace the run reads, or NULL), a dump of `in`, the map or a
 * rules file of `policy` (NULL: none). */
bool collect_output_is_input(const char *out, const char *what, const char *trace, const struct dump_input *in,
			     size_t nin, const char *map_path, const struct rule_policy *policy, struct diag *diag);

#endif
