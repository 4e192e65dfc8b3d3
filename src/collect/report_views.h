/* report's views beyond the per-label rows (collect_stats.h), filled in the
 * same pass as a stats_observer: per label and index (the index a point
 * records: an expert group, a stage), per label across ranks and across
 * cores (min / median / max, the slowest, max/median), the wait share per
 * core type and stage (the time of the points that wait on the other core
 * type or on other ranks, against the rest), the tree of nested points with
 * their time per core type (a flame graph), and per label and rank the time
 * (a heatmap). Memory grows with labels, indexes, ranks and cores, never
 * with the records. */
#ifndef AUTOTRACE_REPORT_VIEWS_H
#define AUTOTRACE_REPORT_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect_stats.h"
#include "diag.h"
#include "report_table.h"

/* The calls that wait, as the labels name them: the last word of a label is
 * the kebab-case name of the call a hot point wraps (rules/moe.rules: waits
 * on flags of the other core type, SyncAll, gm_signal_wait*, collectives). */
#define REPORT_WAIT_DEFAULT "(^|-)(wait|sync)(-|$)|^(all-to-all|all-gather|reduce-scatter)"

struct report_views;

/* `wait_regex` (PCRE2, matched against the last word of each label; NULL:
 * REPORT_WAIT_DEFAULT). With `whole_index` a slice's index is its record's
 * bits 32..63 (the two-argument MoeTracing: index << 8 | extra, as the
 * trace has them), else bits 40..63. NULL after reporting a bad regex. */
struct report_views *report_views_new(const char *wait_regex, bool whole_index, struct diag *diag);
void report_views_free(struct report_views *v);

/* The observer to give stats_observe (one reader per views). */
const struct stats_observer *report_views_observer(struct report_views *v);

/* True when some label recorded an index other than 0; an extra id. */
bool report_views_has_index(const struct report_views *v);
bool report_views_has_extra(const struct report_views *v);
/* With whole_index: -1 after reporting (located at `input`) slices that
 * cannot come from a record's bits 32..63 split in two, an index over 24
 * bits or an extra over 8, or indexes with no extra id anywhere: their
 * index is whole already and whole_index would multiply it by 256. */
int report_views_check_whole_index(const struct report_views *v, const char *input, struct diag *diag);

/* New tables, the caller's to free. Rows by core type, then total time. */
struct report_table *report_views_by_index(struct report_views *v);
struct report_table *report_views_slowest_index(struct report_views *v);
struct report_table *report_views_by_rank(struct report_views *v);
struct report_table *report_views_by_core(struct report_views *v);
struct report_table *report_views_by_stage(struct report_views *v);

/* The per-label rows of collect_stats.h as a table ("labels"). */
struct report_table *report_views_labels(const struct stats_row *rows, size_t n);

/* The flame graph: nodes of the tree of nested labels, per core type; a
 * root's parent is REPORT_NO_NODE. Children follow their parent. */
#define REPORT_NO_NODE UINT32_MAX
struct report_node {
	uint32_t parent, label;
	int kind;
	uint64_t total_ns, count;
};
const struct report_node *report_views_nodes(struct report_views *v, size_t *n);
const char *report_views_label(const struct report_views *v, uint32_t label);
bool report_views_label_waits(const struct report_views *v, uint32_t label);

/* The heatmap: per row (label, core type, in the order of the tables) and
 * rank, the total time: by_rank[0 .. report_views_ranks) filled (0: no
 * slice). The rows are first counted (report_views_rows). */
size_t report_views_ranks(const struct report_views *v);
const char *report_views_rank_name(const struct report_views *v, size_t rank);
size_t report_views_rows(struct report_views *v);
void report_views_row(const struct report_views *v, size_t row, const char **label, int *kind, uint64_t *by_rank);

#endif
