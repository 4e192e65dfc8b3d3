/* collect_file: rules, map and dumps into one trace file (collect_file.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect_file.h"
#include "rule_find.h"
#include "trace_out.h"
#include "xalloc.h"

bool collect_output_is_input(const char *out, const char *what, const char *trace, const struct dump_input *in,
			     size_t nin, const char *map_path, const struct rule_policy *policy, struct diag *diag)
{
	struct stat o, st;

	if (strcmp(out, "-") == 0 || stat(out, &o) != 0 || !S_ISREG(o.st_mode))
		return false;
#define SAME(path) (stat((path), &st) == 0 && st.st_dev == o.st_dev && st.st_ino == o.st_ino)
	if (trace && SAME(trace)) {
		diag_pos(diag, DIAG_ERROR, out, 0, 0, "-o names the trace this run reads (%s): refusing to overwrite it with %s",
			 trace, what);
		return true;
	}
	if (map_path && SAME(map_path)) {
		diag_pos(diag, DIAG_ERROR, out, 0, 0, "-o names the point map (%s): refusing to overwrite it with %s",
			 map_path, what);
		return true;
	}
	for (size_t i = 0; i < nin; i++)
		if (SAME(in[i].path)) {
			diag_pos(diag, DIAG_ERROR, out, 0, 0,
				 "-o names a dump this run reads (%s): refusing to overwrite it with %s", in[i].path, what);
			return true;
		}
	for (size_t i = 0; policy && i < policy->nsources; i++)
		if (policy->sources[i]->path && SAME(policy->sources[i]->path)) {
			diag_pos(diag, DIAG_ERROR, out, 0, 0, "-o names a rules file (%s): refusing to overwrite it with %s",
				 policy->sources[i]->path, what);
			return true;
		}
#undef SAME
	return false;
}

int collect_file(const struct collect_file_opts *o, struct collect_file_result *r, struct diag *diag)
{
	const struct trace_ops *ops = o->ops;
	struct collect_opts run = o->run;
	const char *map_path = o->map_path, *out_path = o->out_path;
	char *map_default = NULL;
	struct rule_policy *policy = NULL;
	struct point_map *map = NULL;
	struct dump_input *in = NULL;
	size_t nin = 0;
	struct trace_out out;
	bool out_open = false;
	void *sink = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (!map_path)
		map_path = map_default = point_map_default_path(o->ndumps ? o->dumps[0] : NULL);
	policy = rule_find_and_load(o->rules_path, ".", diag);
	if (!policy)
		goto out;
	map = point_map_load(map_path, diag);
	if (!map)
		goto out;
	if (dump_inputs_expand(o->dumps, o->ndumps, &in, &nin, diag) != 0)
		goto out;
	if (!out_path)
		out_path = ops == &trace_perfetto_ops || ops == &trace_perfetto_z_ops ? "trace.perfetto-trace" : "trace.json";
	if (collect_output_is_input(out_path, "the trace", NULL, in, nin, map_path, policy, diag))
		goto out;
	if (trace_out_open(&out, out_path, diag) != 0)
		goto out;
	out_open = true;
	run.policy = policy;
	run.map = map;
	run.map_path = map_path;
	sink = ops->new_sink(&out);
	if (collect_run(in, nin, &run, ops, sink, &r->counts, diag) != 0)
		goto out;
	out_open = false;
	r->bytes = out.bytes;
	if (trace_out_commit(&out, diag) != 0)
		goto out;
	if (ops != &trace_perfetto_ops && ops != &trace_perfetto_z_ops && r->bytes > COLLECT_JSON_LOAD_LIMIT)
		diag_pos(diag, DIAG_WARNING, out_path, 0, 0,
			 "%.1f GB of JSON: the Perfetto UI and chrome://tracing load JSON traces of a few hundred MB at "
			 "most; write a Perfetto trace instead (-f perfetto: half the size, and it loads far larger "
			 "traces), or keep less with --rank, --core, --label or --depth",
			 (double)r->bytes / 1e9);
	r->out_path = xstrdup(out_path);
	rc = 0;
out:
	if (out_open)
		trace_out_abort(&out);
	if (sink)
		ops->free_sink(sink);
	dump_inputs_free(in, nin);
	point_map_free(map);
	rule_policy_free(policy);
	free(map_default);
	return rc;
}

void collect_file_result_release(struct collect_file_result *r)
{
	free(r->out_path);
	memset(r, 0, sizeof(*r));
}
