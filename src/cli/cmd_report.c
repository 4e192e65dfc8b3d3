/* autotrace report: per label and core type, count, total, mean, p50, p99,
 * max and share of the cores' time, from a Chrome trace or straight from
 * dumps; with --vs, a baseline side by side with deltas. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "collect_run.h"
#include "collect_stats.h"
#include "commands.h"
#include "exit_status.h"
#include "rule_find.h"
#include "xalloc.h"

enum fmt { F_TABLE, F_CSV, F_JSON, F_MD };

struct report_opts {
	const char *map_path, *rules_path;
	enum fmt fmt;
};

static void usage(FILE *out)
{
	fputs("Usage: autotrace report [options] TRACE|DUMP... [--vs TRACE|DUMP]\n"
	      "\n"
	      "Per label and core type (AIC, AIV): count, total, mean, p50, p99 and max\n"
	      "duration, and share of the cores' time (inclusive of nested slices; the\n"
	      "time of a core runs from its first slice to its last). The input is a\n"
	      "trace written by 'autotrace collect' -- Chrome JSON (any Trace Event JSON\n"
	      "with B/E or X events) or Perfetto (any trace of slices on named tracks) --\n"
	      "or dumps (files or directories) decoded as collect does.\n"
	      "\n"
	      "      --vs INPUT         a baseline: both side by side with deltas\n"
	      "  -f, --format FMT       table (default), csv, json or md\n"
	      "  -m, --map FILE         point map for dumps (default: as collect)\n"
	      "      --rules FILE       rules file for dumps\n"
	      "  -h, --help             this help\n"
	      "\n"
	      "Times are in microseconds (json: nanoseconds). Memory stays small whatever the\n"
	      "input: p50 and p99 are exact up to 4096 slices of a row, within 0.5% beyond\n"
	      "(a histogram of logarithmic buckets); count, total, mean and max are exact.\n"
	      "Exit status 0, or 2 on bad input.\n",
	      out);
}

/* A trace file rather than dumps: a regular file that is not named like a
 * dump (.pt, .npy, .bin) and starts like JSON (after any blanks) or like a
 * Perfetto trace (a packet field, 0x0A); stats_read_trace decides which. */
static bool looks_like_trace(const char *path)
{
	static const char *const dump_ext[] = { ".pt", ".npy", ".bin", NULL };
	const char *dot = strrchr(path, '.');
	struct stat st;
	FILE *f;
	int c;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	for (size_t i = 0; dot && dump_ext[i]; i++)
		if (strcmp(dot, dump_ext[i]) == 0)
			return false;
	f = fopen(path, "rb");
	if (!f)
		return false;
	c = fgetc(f);
	if (c == (1 << 3 | 2)) {
		fclose(f);
		return true;
	}
	while (c == ' ' || c == '\n' || c == '\r' || c == '\t')
		c = fgetc(f);
	fclose(f);
	return c == '{' || c == '[';
}

/* Fills `s` from one input (a trace, or dumps). */
static int load(struct stats *s, char **args, size_t nargs, const struct report_opts *ro, struct diag *diag)
{
	struct rule_policy *policy = NULL;
	struct point_map *map = NULL;
	struct dump_input *in = NULL;
	size_t nin = 0;
	struct collect_opts o;
	struct collect_counts counts;
	void *sink = NULL;
	char *map_default = NULL;
	int rc = -1;

	if (nargs == 1 && looks_like_trace(args[0]))
		return stats_read_trace(s, args[0], diag);
	if (!ro->map_path)
		map_default = point_map_default_path(args[0]);
	if (dump_inputs_expand(args, nargs, &in, &nin, diag) != 0)
		goto out;
	policy = rule_find_and_load(ro->rules_path, ".", diag);
	if (!policy)
		goto out;
	map = point_map_load(ro->map_path ? ro->map_path : map_default, diag);
	if (!map)
		goto out;
	memset(&o, 0, sizeof(o));
	o.policy = policy;
	o.map = map;
	o.map_path = ro->map_path ? ro->map_path : map_default;
	o.quiet = true;
	sink = stats_sink_new(s);
	if (collect_run(in, nin, &o, &stats_trace_ops, sink, &counts, diag) != 0)
		goto out;
	rc = 0;
out:
	stats_trace_ops.free_sink(sink);
	dump_inputs_free(in, nin);
	point_map_free(map);
	rule_policy_free(policy);
	free(map_default);
	return rc;
}

static double us(uint64_t ns)
{
	return (double)ns / 1000.0;
}

static double delta_pct(uint64_t base, uint64_t now)
{
	if (!base)
		return now ? INFINITY : 0.0;
	return 100.0 * ((double)now - (double)base) / (double)base;
}

/* CSV / markdown cells: labels may hold commas, quotes or bars. */
/* The label left-aligned in `w` terminal cells. */
static void pad_label(FILE *out, const char *label, int w)
{
	diag_put_text(out, label, strlen(label));
	for (int k = (int)diag_text_cells(label); k < w; k++)
		fputc(' ', out);
}

static void put_label(FILE *out, const char *label, enum fmt f)
{
	if (f == F_CSV && strpbrk(label, ",\"\n")) {
		fputc('"', out);
		for (const char *p = label; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	} else if (f == F_MD) {
		for (const char *p = label; *p; p++) {
			if (*p == '|')
				fputc('\\', out);
			diag_put_text(out, p, 1);
		}
	} else if (f == F_CSV) {
		fputs(label, out); /* data, not the terminal's */
	} else {
		diag_put_text(out, label, strlen(label));
	}
}

static void print_single(FILE *out, const struct stats_row *r, size_t n, enum fmt f)
{
	static const char *const head[] = { "label", "core", "count", "total_us", "mean_us", "p50_us", "p99_us",
					    "max_us", "share" };
	int w = 5;

	if (f == F_JSON) {
		cJSON *arr = cJSON_CreateArray();
		char *text;
		for (size_t i = 0; i < n; i++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "label", r[i].label);
			cJSON_AddStringToObject(o, "core", stats_kind_name(r[i].kind));
			cJSON_AddNumberToObject(o, "count", (double)r[i].count);
			cJSON_AddNumberToObject(o, "total_ns", (double)r[i].total_ns);
			cJSON_AddNumberToObject(o, "mean_ns", (double)r[i].mean_ns);
			cJSON_AddNumberToObject(o, "p50_ns", (double)r[i].p50_ns);
			cJSON_AddNumberToObject(o, "p99_ns", (double)r[i].p99_ns);
			cJSON_AddNumberToObject(o, "max_ns", (double)r[i].max_ns);
			cJSON_AddNumberToObject(o, "share", (double)(int64_t)(r[i].share * 10000 + 0.5) / 10000);
			if (r[i].approximate)
				cJSON_AddTrueToObject(o, "percentiles_approximate");
			cJSON_AddItemToArray(arr, o);
		}
		text = cJSON_Print(arr);
		fprintf(out, "%s\n", text);
		cJSON_free(text);
		cJSON_Delete(arr);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if ((int)diag_text_cells(r[i].label) > w)
			w = (int)diag_text_cells(r[i].label);
	if (f == F_CSV) {
		fputs("label,core,count,total_us,mean_us,p50_us,p99_us,max_us,share\n", out);
	} else if (f == F_MD) {
		fputs("| label | core | count | total (us) | mean (us) | p50 (us) | p99 (us) | max (us) | share |\n"
		      "|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
		      out);
	} else {
		fprintf(out, "%-*s  %-5s %8s %12s %10s %10s %10s %10s %7s\n", w, head[0], head[1], head[2],
			"total(us)", "mean(us)", "p50(us)", "p99(us)", "max(us)", head[8]);
	}
	for (size_t i = 0; i < n; i++) {
		const struct stats_row *x = &r[i];
		if (f == F_CSV || f == F_MD) {
			const char *sep = f == F_CSV ? "," : " | ";
			if (f == F_MD)
				fputs("| ", out);
			put_label(out, x->label, f);
			fprintf(out, "%s%s%s%llu%s%.3f%s%.3f%s%.3f%s%.3f%s%.3f%s%.1f%%%s\n", sep, stats_kind_name(x->kind), sep,
				(unsigned long long)x->count, sep, us(x->total_ns), sep, us(x->mean_ns), sep, us(x->p50_ns), sep,
				us(x->p99_ns), sep, us(x->max_ns), sep, 100 * x->share, f == F_MD ? " |" : "");
		} else {
			pad_label(out, x->label, w);
			fprintf(out, "  %-5s %8llu %12.3f %10.3f %10.3f %10.3f %10.3f %6.1f%%\n",
				stats_kind_name(x->kind), (unsigned long long)x->count, us(x->total_ns), us(x->mean_ns),
				us(x->p50_ns), us(x->p99_ns), us(x->max_ns), 100 * x->share);
		}
	}
	if (f == F_TABLE || f == F_MD)
		for (size_t i = 0; i < n; i++)
			if (r[i].approximate) {
				fputs("(p50 and p99 of rows over 4096 slices are within 0.5%; count, total, mean and max are "
				      "exact)\n",
				      out);
				break;
			}
}

static const struct stats_row *match(const struct stats_row *v, size_t n, const struct stats_row *r)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == r->kind && strcmp(v[i].label, r->label) == 0)
			return &v[i];
	return NULL;
}

static void print_vs(FILE *out, const struct stats_row *a, size_t na, const struct stats_row *b, size_t nb,
		     enum fmt f)
{
	static const struct stats_row zero = { 0 };
	/* rows of the current run, then those only in the baseline */
	size_t n = 0;
	struct { const struct stats_row *cur, *base; } *rows = xcalloc(na + nb + 1, sizeof(*rows));
	int w = 5;
	cJSON *arr = NULL;

	for (size_t i = 0; i < na; i++) {
		rows[n].cur = &a[i];
		rows[n++].base = match(b, nb, &a[i]);
	}
	for (size_t i = 0; i < nb; i++)
		if (!match(a, na, &b[i])) {
			rows[n].cur = NULL;
			rows[n++].base = &b[i];
		}
	for (size_t i = 0; i < n; i++) {
		const char *l = rows[i].cur ? rows[i].cur->label : rows[i].base->label;
		if ((int)diag_text_cells(l) > w)
			w = (int)diag_text_cells(l);
	}
	if (f == F_JSON)
		arr = cJSON_CreateArray();
	else if (f == F_CSV)
		fputs("label,core,count_base,count,mean_us_base,mean_us,mean_delta_pct,p99_us_base,p99_us,p99_delta_pct,"
		      "total_us_base,total_us\n",
		      out);
	else if (f == F_MD)
		fputs("| label | core | count (base) | count | mean (base, us) | mean (us) | Δ mean | p99 (base, us) | "
		      "p99 (us) | Δ p99 | total (base, us) | total (us) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
		      out);
	else
		/* "Δ" is two bytes in one cell: its columns get one more byte of width */
		fprintf(out, "%-*s  %-5s %8s %8s %11s %11s %9s %11s %11s %9s\n", w, "label", "core", "count0", "count",
			"mean0(us)", "mean(us)", "Δmean", "p99_0(us)", "p99(us)", "Δp99");
	for (size_t i = 0; i < n; i++) {
		const struct stats_row *c = rows[i].cur ? rows[i].cur : &zero, *z = rows[i].base ? rows[i].base : &zero;
		const struct stats_row *any = rows[i].cur ? rows[i].cur : rows[i].base;
		double dm = delta_pct(z->mean_ns, c->mean_ns), dp = delta_pct(z->p99_ns, c->p99_ns);
		if (f == F_JSON) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "label", any->label);
			cJSON_AddStringToObject(o, "core", stats_kind_name(any->kind));
			cJSON_AddNumberToObject(o, "count_base", (double)z->count);
			cJSON_AddNumberToObject(o, "count", (double)c->count);
			cJSON_AddNumberToObject(o, "mean_ns_base", (double)z->mean_ns);
			cJSON_AddNumberToObject(o, "mean_ns", (double)c->mean_ns);
			cJSON_AddNumberToObject(o, "p99_ns_base", (double)z->p99_ns);
			cJSON_AddNumberToObject(o, "p99_ns", (double)c->p99_ns);
			cJSON_AddNumberToObject(o, "total_ns_base", (double)z->total_ns);
			cJSON_AddNumberToObject(o, "total_ns", (double)c->total_ns);
			if (isfinite(dm))
				cJSON_AddNumberToObject(o, "mean_delta_pct", (double)(int64_t)(dm * 10 + (dm < 0 ? -0.5 : 0.5)) / 10);
			else
				cJSON_AddNullToObject(o, "mean_delta_pct");
			cJSON_AddItemToArray(arr, o);
		} else if (f == F_CSV || f == F_MD) {
			const char *sep = f == F_CSV ? "," : " | ";
			if (f == F_MD)
				fputs("| ", out);
			put_label(out, any->label, f);
			fprintf(out, "%s%s%s%llu%s%llu%s%.3f%s%.3f%s%+.1f%%%s%.3f%s%.3f%s%+.1f%%%s%.3f%s%.3f%s\n", sep,
				stats_kind_name(any->kind), sep, (unsigned long long)z->count, sep, (unsigned long long)c->count,
				sep, us(z->mean_ns), sep, us(c->mean_ns), sep, dm, sep, us(z->p99_ns), sep, us(c->p99_ns), sep, dp,
				sep, us(z->total_ns), sep, us(c->total_ns), f == F_MD ? " |" : "");
		} else {
			pad_label(out, any->label, w);
			fprintf(out, "  %-5s %8llu %8llu %11.3f %11.3f %+7.1f%% %11.3f %11.3f %+7.1f%%\n",
				stats_kind_name(any->kind), (unsigned long long)z->count, (unsigned long long)c->count,
				us(z->mean_ns), us(c->mean_ns), dm, us(z->p99_ns), us(c->p99_ns), dp);
		}
	}
	if (arr) {
		char *text = cJSON_Print(arr);
		fprintf(out, "%s\n", text);
		cJSON_free(text);
		cJSON_Delete(arr);
	}
	free(rows);
}

int cmd_report(int argc, char **argv, struct diag *diag)
{
	enum { O_VS = 256, O_RULES };
	static const struct option opts[] = { { "vs", required_argument, NULL, O_VS },
					      { "format", required_argument, NULL, 'f' },
					      { "map", required_argument, NULL, 'm' },
					      { "rules", required_argument, NULL, O_RULES },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	struct report_opts ro = { NULL, NULL, F_TABLE };
	const char *vs = NULL;
	struct stats *cur = NULL, *base = NULL;
	int c, status = EXIT_BAD_INPUT;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:m:h", opts, NULL)) != -1) {
		switch (c) {
		case O_VS:
			vs = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "table") == 0)
				ro.fmt = F_TABLE;
			else if (strcmp(optarg, "csv") == 0)
				ro.fmt = F_CSV;
			else if (strcmp(optarg, "json") == 0)
				ro.fmt = F_JSON;
			else if (strcmp(optarg, "md") == 0)
				ro.fmt = F_MD;
			else {
				diag_plain(diag, DIAG_ERROR, "--format: '%s' is not table, csv, json or md", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'm':
			ro.map_path = optarg;
			break;
		case O_RULES:
			ro.rules_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		diag_plain(diag, DIAG_ERROR, "report: no trace or dump given");
		return EXIT_BAD_INPUT;
	}
	cur = stats_new();
	if (load(cur, argv + optind, (size_t)(argc - optind), &ro, diag) != 0)
		goto out;
	if (vs) {
		base = stats_new();
		if (load(base, (char **)&vs, 1, &ro, diag) != 0)
			goto out;
	}
	{
		size_t na, nb = 0;
		const struct stats_row *a = stats_rows(cur, &na), *b = base ? stats_rows(base, &nb) : NULL;
		if (base)
			print_vs(stdout, a, na, b, nb, ro.fmt);
		else
			print_single(stdout, a, na, ro.fmt);
	}
	status = EXIT_OK;
out:
	stats_free(cur);
	stats_free(base);
	return status;
}
