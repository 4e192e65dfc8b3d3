/* autotrace report: per label and core type, count, total, mean, p50, p99,
 * max and share of the cores' time, from a Chrome trace or straight from
 * dumps; with --vs, a baseline side by side with deltas; with --by, the
 * views of report_views.h as tables; --format html / svg, the page and the
 * flame graph (report_html.h, report_flame.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "atomic_write.h"
#include "collect_file.h"
#include "collect_run.h"
#include "collect_stats.h"
#include "commands.h"
#include "exit_status.h"
#include "index_table.h"
#include "report_cells.h"
#include "report_flame.h"
#include "report_html.h"
#include "report_views.h"
#include "rule_find.h"
#include "suggest.h"
#include "xalloc.h"

enum fmt { F_TABLE, F_CSV, F_JSON, F_MD, F_HTML, F_SVG };

/* The views of --by, in the order they print. */
#define BY_LIST(X) X(index) X(rank) X(core) X(stage)
#define BY_ENUM(name) BY_##name,
enum { BY_LIST(BY_ENUM) BY_COUNT };
#define BY_NAME(name) #name,
static const char *const by_names[] = { BY_LIST(BY_NAME) };

struct report_opts {
	const char *map_path, *rules_path, *wait, *output;
	enum fmt fmt;
	unsigned by;                /* 1 << BY_* */
	bool whole_index;
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
	      "      --by VIEW[,VIEW]   instead of the per-label rows (all: every view):\n"
	      "                           index  per label and index the point recorded\n"
	      "                                  (an expert group, a stage): count, total,\n"
	      "                                  mean, max, mean/median; the slowest named\n"
	      "                           rank   per label across ranks: min, median, max\n"
	      "                                  of each rank's total, the slowest rank,\n"
	      "                                  max/median (the imbalance)\n"
	      "                           core   the same across cores (\"AIV 3.1\"), each\n"
	      "                                  core's total summed over the ranks\n"
	      "                           stage  per core type and stage (a label's first\n"
	      "                                  word): own time, time waiting, wait share\n"
	      "      --whole-index      an index is the record's bits 32-63 (the two-argument\n"
	      "                         MoeTracing; in a trace: index x 256 + extra), not\n"
	      "                         40-63; refused where the indexes are whole already\n"
	      "                         (no extra id anywhere)\n"
	      "      --wait REGEX       the calls that wait, matched against the last word of\n"
	      "                         each label (default: wait or sync as a word of it,\n"
	      "                         all-to-all, all-gather, reduce-scatter)\n"
	      "  -f, --format FMT       table (default), csv, json, md; html: one page with\n"
	      "                         the flame graph per core type, the rank x label\n"
	      "                         heatmap (past 2097152 cells left out, said) and\n"
	      "                         every table; svg: the flame graph alone. csv and md\n"
	      "                         keep names data: a csv cell starting with = + - @,\n"
	      "                         a tab or CR gets a ' first; md escapes < > & as\n"
	      "                         entities and | \\ ` * _ [ ] ~ with a backslash\n"
	      "  -o, --output FILE      write there (replaced whole) instead of stdout; never\n"
	      "                         over an input (a trace, a dump, the map, the rules)\n"
	      "  -m, --map FILE         point map for dumps (default: as collect)\n"
	      "      --rules FILE       rules file for dumps\n"
	      "  -h, --help             this help\n"
	      "\n"
	      "A trace's B, E and X events need a \"ts\" (X: a \"dur\") from 0 to 2^53 us\n"
	      "(285 years), a slice must not end before it begins, a name must hold no NUL\n"
	      "(\\u0000): else exit 2, at the event. An args.index or args.extra (Perfetto: a\n"
	      "debug annotation) not a whole number from 0 to 4294967295 is a warning naming\n"
	      "the event; the slice is read without it.\n"
	      "\n"
	      "Times are in microseconds (json: nanoseconds). Memory stays small whatever the\n"
	      "input: p50 and p99 are exact up to 4096 slices of a row, within 0.5% beyond\n"
	      "(a histogram of logarithmic buckets); count, total, mean and max are exact.\n"
	      "The views are exact; they keep a number per label and rank, core or index.\n"
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
	/* (with an observer set on `s`, the views fill in the same pass) */
	struct rule_policy *policy = NULL;
	struct point_map *map = NULL;
	struct dump_input *in = NULL;
	size_t nin = 0;
	struct collect_opts o;
	struct collect_counts counts;
	void *sink = NULL;
	char *map_default = NULL;
	int rc = -1;

	if (nargs == 1 && looks_like_trace(args[0])) {
		if (ro->output && collect_output_is_input(ro->output, "the report", args[0], NULL, 0, NULL, NULL, diag))
			return -1;
		return stats_read_trace(s, args[0], diag);
	}
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
	if (ro->output && collect_output_is_input(ro->output, "the report", NULL, in, nin,
						  ro->map_path ? ro->map_path : map_default, policy, diag))
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

/* The label left-aligned in `w` terminal cells. */
static void pad_label(FILE *out, const char *label, int w)
{
	diag_put_text(out, label, strlen(label));
	for (int k = (int)diag_text_cells(label); k < w; k++)
		fputc(' ', out);
}

/* A text cell (a label, a core or rank name: anyone's text) in format f:
 * CSV and markdown as report_cells.h says, else for the terminal. */
static void put_label(FILE *out, const char *label, enum fmt f)
{
	if (f == F_CSV)
		report_csv_cell(out, label);
	else if (f == F_MD)
		report_md_cell(out, label);
	else
		diag_put_text(out, label, strlen(label));
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

/* The rows of one run, hashed by (label, core type): --vs pairs each row
 * of a run with the other's (a trace may hold as many labels as slices). */
struct row_index {
	const struct stats_row *rows;
	struct index_table t;
};

struct row_key {
	const struct stats_row *rows, *r;
};

static uint64_t row_hash(const struct stats_row *r)
{
	return index_hash_more(index_hash_bytes(r->label, strlen(r->label)), &r->kind, sizeof(r->kind));
}

static bool same_row(const void *ctx, size_t item)
{
	const struct row_key *k = ctx;
	return k->rows[item].kind == k->r->kind && strcmp(k->rows[item].label, k->r->label) == 0;
}

static void row_index_init(struct row_index *x, const struct stats_row *rows, size_t n)
{
	memset(x, 0, sizeof(*x));
	x->rows = rows;
	for (size_t i = 0; i < n; i++)
		index_table_add(&x->t, row_hash(&rows[i]), i);
}

/* The row of x with r's label and core type, or NULL. */
static const struct stats_row *match(const struct row_index *x, const struct stats_row *r)
{
	struct row_key key = { x->rows, r };
	size_t k = index_table_find(&x->t, row_hash(r), same_row, &key);
	return k == SIZE_MAX ? NULL : &x->rows[k];
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
	struct row_index ia, ib;

	row_index_init(&ia, a, na);
	row_index_init(&ib, b, nb);
	for (size_t i = 0; i < na; i++) {
		rows[n].cur = &a[i];
		rows[n++].base = match(&ib, &a[i]);
	}
	for (size_t i = 0; i < nb; i++)
		if (!match(&ia, &b[i])) {
			rows[n].cur = NULL;
			rows[n++].base = &b[i];
		}
	index_table_free(&ia.t);
	index_table_free(&ib.t);
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

/* One table of the views in a text format. */
static void print_table(FILE *out, const struct report_table *t, enum fmt f)
{
	char buf[64];
	int *w = xcalloc(t->ncols + 1, sizeof(*w));

	for (size_t c = 0; c < t->ncols; c++) {
		w[c] = (int)strlen(report_column_head(&t->cols[c], buf, sizeof(buf)));
		for (size_t r = 0; r < t->nrows; r++) {
			int n = (int)diag_text_cells(report_cell_format(t, r, c, buf, sizeof(buf)));
			if (n > w[c])
				w[c] = n;
		}
	}
	if (f == F_TABLE)
		fprintf(out, "%s\n", t->title);
	for (size_t c = 0; c < t->ncols; c++) {
		const char *h = report_column_head(&t->cols[c], buf, sizeof(buf));
		if (f == F_CSV)
			fprintf(out, "%s%s%s", c ? "," : "", t->cols[c].name, t->cols[c].type == RC_NS ? "_us" : "");
		else if (f == F_MD)
			fprintf(out, "%s %s", c ? " |" : "|", h);
		else if (t->cols[c].type == RC_TEXT)
			fprintf(out, "%s%-*s", c ? "  " : "", c + 1 < t->ncols ? w[c] : 0, h);
		else
			fprintf(out, "%s%*s", c ? "  " : "", w[c], h);
	}
	fputs(f == F_MD ? " |\n" : "\n", out);
	if (f == F_MD) {
		for (size_t c = 0; c < t->ncols; c++)
			fputs(t->cols[c].type == RC_TEXT ? "|---" : "|---:", out);
		fputs("|\n", out);
	}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *v = report_cell_format(t, r, c, buf, sizeof(buf));
			if (f == F_CSV || f == F_MD) {
				fputs(f == F_CSV ? (c ? "," : "") : (c ? " | " : "| "), out);
				if (t->cols[c].type == RC_TEXT)
					put_label(out, v, f);
				else
					fputs(v, out);
			} else if (t->cols[c].type == RC_TEXT) {
				fputs(c ? "  " : "", out);
				if (c + 1 < t->ncols)
					pad_label(out, v, w[c]);
				else
					diag_put_text(out, v, strlen(v));
			} else {
				fprintf(out, "%s%*s", c ? "  " : "", w[c], v);
			}
		}
		fputs(f == F_MD ? " |\n" : "\n", out);
	}
	free(w);
}

/* The tables as one JSON object: {"by_rank": [{column: value}], ...}. */
static void print_tables_json(FILE *out, struct report_table *const *tables, size_t n)
{
	cJSON *root = cJSON_CreateObject();
	char *text;

	for (size_t i = 0; i < n; i++) {
		const struct report_table *t = tables[i];
		cJSON *arr = cJSON_AddArrayToObject(root, t->name);
		for (size_t r = 0; r < t->nrows; r++) {
			cJSON *o = cJSON_CreateObject();
			for (size_t c = 0; c < t->ncols; c++) {
				char key[48];
				snprintf(key, sizeof(key), "%s%s", t->cols[c].name, t->cols[c].type == RC_NS ? "_ns" : "");
				if (t->cols[c].type == RC_TEXT)
					cJSON_AddStringToObject(o, key, report_table_cell(t, r, c)->text);
				else
					cJSON_AddNumberToObject(o, key, report_cell_json(t, r, c));
			}
			cJSON_AddItemToArray(arr, o);
		}
	}
	text = cJSON_Print(root);
	fprintf(out, "%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
}

/* Parses a --by list into ro->by. -1 after reporting. */
static int parse_by(const char *arg, struct report_opts *ro, struct diag *diag)
{
	char *list = xstrdup(arg), *save = NULL;
	int rc = 0;

	for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		size_t k;
		if (strcmp(w, "all") == 0) {
			ro->by = (1u << BY_COUNT) - 1;
			continue;
		}
		for (k = 0; k < BY_COUNT && strcmp(w, by_names[k]) != 0; k++)
			;
		if (k == BY_COUNT) {
			const char *near = suggest_closest(w, by_names, BY_COUNT);
			diag_plain(diag, DIAG_ERROR, "--by: '%s' is not index, rank, core, stage or all%s%s%s", w,
				   near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
			rc = -1;
			break;
		}
		ro->by |= 1u << k;
	}
	if (rc == 0 && !ro->by) {
		diag_plain(diag, DIAG_ERROR, "--by: no view named (index, rank, core, stage or all)");
		rc = -1;
	}
	free(list);
	return rc;
}

/* The tables of the views asked for, into tables[] (at most 6); their count. */
static size_t view_tables(struct report_views *v, unsigned by, struct report_table **tables)
{
	size_t n = 0;

	if (by & 1u << BY_index) {
		tables[n++] = report_views_by_index(v);
		tables[n++] = report_views_slowest_index(v);
	}
	if (by & 1u << BY_rank)
		tables[n++] = report_views_by_rank(v);
	if (by & 1u << BY_core)
		tables[n++] = report_views_by_core(v);
	if (by & 1u << BY_stage)
		tables[n++] = report_views_by_stage(v);
	return n;
}

/* The inputs named on the command line, as one line for the page's title. */
static char *inputs_line(char **args, size_t n)
{
	struct strbuf b = { 0 };

	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_putc(&b, ' ');
		strbuf_puts(&b, args[i]);
	}
	return strbuf_take(&b);
}

int cmd_report(int argc, char **argv, struct diag *diag)
{
	enum { O_VS = 256, O_RULES, O_BY, O_WAIT, O_WHOLE };
	static const struct option opts[] = { { "vs", required_argument, NULL, O_VS },
					      { "format", required_argument, NULL, 'f' },
					      { "map", required_argument, NULL, 'm' },
					      { "rules", required_argument, NULL, O_RULES },
					      { "by", required_argument, NULL, O_BY },
					      { "wait", required_argument, NULL, O_WAIT },
					      { "whole-index", no_argument, NULL, O_WHOLE },
					      { "output", required_argument, NULL, 'o' },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	static const char *const fmt_names[] = { "table", "csv", "json", "md", "html", "svg" };
	struct report_opts ro = { NULL, NULL, NULL, NULL, F_TABLE, 0, false };
	const char *vs = NULL;
	struct stats *cur = NULL, *base = NULL;
	struct report_views *views = NULL;
	struct report_table *tables[8];
	size_t ntables = 0;
	char *mem = NULL, *inputs = NULL;
	size_t memlen = 0;
	FILE *out = stdout;
	int c, status = EXIT_BAD_INPUT;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:m:o:h", opts, NULL)) != -1) {
		switch (c) {
		case O_VS:
			vs = optarg;
			break;
		case 'f': {
			size_t k;
			for (k = 0; k < sizeof(fmt_names) / sizeof(fmt_names[0]) && strcmp(optarg, fmt_names[k]) != 0; k++)
				;
			if (k == sizeof(fmt_names) / sizeof(fmt_names[0])) {
				diag_plain(diag, DIAG_ERROR, "--format: '%s' is not table, csv, json, md, html or svg", optarg);
				return EXIT_BAD_INPUT;
			}
			ro.fmt = (enum fmt)k;
			break;
		}
		case 'm':
			ro.map_path = optarg;
			break;
		case 'o':
			if (!*optarg) {
				diag_plain(diag, DIAG_ERROR, "-o: an empty file name (-o - is standard output)");
				return EXIT_BAD_INPUT;
			}
			ro.output = optarg;
			break;
		case O_RULES:
			ro.rules_path = optarg;
			break;
		case O_BY:
			if (parse_by(optarg, &ro, diag) != 0)
				return EXIT_BAD_INPUT;
			break;
		case O_WAIT:
			ro.wait = optarg;
			break;
		case O_WHOLE:
			ro.whole_index = true;
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
	if (vs && (ro.by || ro.fmt == F_HTML || ro.fmt == F_SVG)) {
		diag_plain(diag, DIAG_ERROR, "--vs compares the per-label rows: not with %s%s",
			   ro.by ? "--by" : "--format ", ro.by ? "" : fmt_names[ro.fmt]);
		return EXIT_BAD_INPUT;
	}
	if (ro.by && ro.fmt == F_SVG) {
		diag_plain(diag, DIAG_ERROR, "--by with --format svg: the SVG is the flame graph alone (--format html has "
					     "the tables)");
		return EXIT_BAD_INPUT;
	}
	cur = stats_new();
	if (ro.by || ro.fmt == F_HTML || ro.fmt == F_SVG || ro.wait) {
		views = report_views_new(ro.wait, ro.whole_index, diag);
		if (!views)
			goto out;
		stats_observe(cur, report_views_observer(views));
	}
	if (load(cur, argv + optind, (size_t)(argc - optind), &ro, diag) != 0)
		goto out;
	if (vs) {
		base = stats_new();
		if (load(base, (char **)&vs, 1, &ro, diag) != 0)
			goto out;
	}
	if (views && report_views_check_whole_index(views, argv[optind], diag) != 0)
		goto out;
	if ((ro.by & 1u << BY_index) && !report_views_has_index(views)) {
		if (report_views_has_extra(views))
			diag_pos(diag, DIAG_ERROR, argv[optind], 0, 0,
				 "--by index: no slice records an index, but some an extra id: the two-argument "
				 "MoeTracing(id, index) puts a small index there (add --whole-index)");
		else
			diag_pos(diag, DIAG_ERROR, argv[optind], 0, 0,
				 "--by index: no slice records an index (an \"index\" arg or annotation in a trace, the "
				 "index of MoeTracing(id, index) in a dump); the points of loops the rules give `index` "
				 "record one");
		goto out;
	}
	if (ro.output && strcmp(ro.output, "-") != 0 && ro.fmt != F_HTML && ro.fmt != F_SVG) {
		out = open_memstream(&mem, &memlen);
		if (!out) {
			diag_plain(diag, DIAG_ERROR, "report: out of memory");
			goto out;
		}
	}
	if (ro.fmt == F_HTML || ro.fmt == F_SVG) {
		struct strbuf page = { 0 };
		if (ro.fmt == F_SVG) {
			report_flame_svg(&page, views, 1200);
		} else {
			size_t na;
			const struct stats_row *a = stats_rows(cur, &na);
			tables[ntables++] = report_views_labels(a, na);
			ntables += view_tables(views, (1u << BY_COUNT) - 1 - (report_views_has_index(views) ? 0 : 1u << BY_index),
					       tables + ntables);
			inputs = inputs_line(argv + optind, (size_t)(argc - optind));
			report_html_page(&page, inputs, views, tables, ntables);
		}
		if (ro.output && strcmp(ro.output, "-") != 0) {
			int rc = atomic_write(ro.output, page.s ? page.s : "", page.n, diag);
			strbuf_release(&page);
			if (rc != 0)
				goto out;
		} else {
			fwrite(page.s ? page.s : "", 1, page.n, out);
			strbuf_release(&page);
		}
	} else if (ro.by) {
		ntables = view_tables(views, ro.by, tables);
		if (ro.fmt == F_JSON)
			print_tables_json(out, tables, ntables);
		else
			for (size_t i = 0; i < ntables; i++) {
				if (i)
					fputc('\n', out);
				print_table(out, tables[i], ro.fmt);
			}
	} else {
		size_t na, nb = 0;
		const struct stats_row *a = stats_rows(cur, &na), *b = base ? stats_rows(base, &nb) : NULL;
		if (base)
			print_vs(out, a, na, b, nb, ro.fmt);
		else
			print_single(out, a, na, ro.fmt);
	}
	if (out != stdout) {
		fclose(out);
		out = stdout;
		if (atomic_write(ro.output, mem, memlen, diag) != 0)
			goto out;
	}
	status = EXIT_OK;
out:
	if (out != stdout)
		fclose(out);
	free(mem);
	free(inputs);
	for (size_t i = 0; i < ntables; i++)
		report_table_free(tables[i]);
	stats_free(cur);
	stats_free(base);
	report_views_free(views);
	return status;
}
