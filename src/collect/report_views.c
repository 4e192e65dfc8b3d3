/* report's views, accumulated slice by slice. See report_views.h.
 *
 * The observer is called for every slice (73 M at 1,024 ranks), so its path
 * is a few array lookups: the reader's label ids map to ours through a
 * cache, a (label, core type) row through a dense table, and the node of
 * the flame graph (and whether the slice is inside a point that waits)
 * through a cache of the reader's path numbers (slice_path.h), each path
 * resolved once from its parent's node, whatever its depth. */
#include "report_views.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <inttypes.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_table.h"
#include "row_sums.h"
#include "xalloc.h"

/* The flame graph's (parent, label) -> child table is an array while it
 * holds no more cells than this, else a hash table. */
#define DIRECT_CHILDREN (1u << 22)

struct vlabel {
	char *text;
	bool wait;
	uint32_t stage;             /* the first word's ordinal */
};

struct vrow {
	uint32_t label;
	int kind;
	uint64_t count, total;
	uint32_t *index_entry;      /* index -> v->idx entry + 1, while dense (as row_sums.h) */
	size_t cap_index_entry;
	uint32_t nindexes;          /* distinct indexes */
	bool indexed;               /* an index other than 0 seen */
};

struct vindex {
	uint32_t row, index;
	uint64_t count, total, max;
};

struct report_views {
	struct stats_observer obs;
	pcre2_code *wait_re;
	pcre2_match_data *md;
	struct vlabel *labels;
	size_t nlabels, caplabels;
	struct index_table label_index;
	char **stages;
	size_t nstages, capstages;
	struct index_table stage_index;
	const void *cache_src;      /* the reader the cache is of */
	uint32_t *label_cache;      /* reader's label -> ours + 1 */
	size_t cap_cache;
	struct vrow *rows;
	size_t nrows, caprows;
	uint32_t *row_of;           /* [label * STATS_KINDS + kind]: row + 1 */
	size_t cap_row_of;
	char **cores;
	size_t ncores, capcores;
	struct index_table core_index;
	char **ranks;
	size_t nranks, capranks;
	struct row_sums by_rank, by_core; /* per row */
	struct vindex *idx;
	size_t nidx, capidx;
	struct index_table idx_index;
	size_t last_idx;            /* + 1 */
	struct report_node *nodes;
	size_t nnodes, capnodes;
	struct index_table node_index;
	uint32_t *child_of;         /* [(parent row) * cap_child_labels + label]: node + 1; rows:
				     * STATS_KINDS for the roots of each kind, then a node each */
	size_t cap_child_rows, cap_child_labels;
	bool children_hashed;       /* past DIRECT_CHILDREN: node_index only */
	bool *node_waits;           /* per node: its label or one above it waits */
	size_t cap_node_waits;
	uint32_t *path_node;        /* [reader's path * STATS_KINDS + kind]: node + 1 */
	size_t cap_path_node;
	uint32_t *climb;            /* scratch: the paths resolved by one slice */
	size_t cap_climb;
	uint64_t *stage_wait, *stage_busy; /* [stage * STATS_KINDS + kind] */
	size_t cap_stage;
	uint64_t kind_total[STATS_KINDS];
	bool has_index, has_extra, whole_index;
	bool has_split_index;       /* a slice's own index (bits 40..63) other than 0 */
	/* with whole_index, the first slice whose index and extra no record's
	 * bits 32..63 give (an index over 24 bits, an extra over 8) */
	bool whole_bad;
	uint32_t whole_bad_label, whole_bad_rank, whole_bad_index, whole_bad_extra;
	size_t *order;              /* rows in table order, once sorted */
};

/* ---- zero-filled arrays that grow ---- */

/* The capacity that holds index `at`: `cap` doubled as often as needed. */
static size_t capacity_for(size_t cap, size_t at)
{
	size_t n = cap ? cap : 16;

	while (n <= at)
		n *= 2;
	return n;
}

/* `p` (`old` elements of `size` bytes) grown to `n`, the new ones zero. */
static void *grow_zeroed(void *p, size_t old, size_t n, size_t size)
{
	p = xrealloc(p, n * size);
	memset((char *)p + old * size, 0, (n - old) * size);
	return p;
}

/* Grows array `a` (capacity `cap`, zero-filled) to hold index `at`. */
#define GROW_ZEROED(a, cap, at)                                                     \
	do {                                                                        \
		if ((size_t)(at) >= (cap)) {                                        \
			size_t gz_n_ = capacity_for((cap), (size_t)(at));           \
			(a) = grow_zeroed((a), (cap), gz_n_, sizeof(*(a)));          \
			(cap) = gz_n_;                                               \
		}                                                                   \
	} while (0)

/* ---- labels, cores, ranks ---- */

struct text_key {
	char **texts;
	const char *s;
	size_t n;
};

static bool same_text(const void *ctx, size_t item)
{
	const struct text_key *k = ctx;
	return strlen(k->texts[item]) == k->n && memcmp(k->texts[item], k->s, k->n) == 0;
}

static bool same_label_text(const void *ctx, size_t item)
{
	const struct report_views *v = ((const void *const *)ctx)[0];
	const char *s = ((const void *const *)ctx)[1];
	return strcmp(v->labels[item].text, s) == 0;
}

/* The ordinal of a label's stage (its first word), hashed: a trace may
 * hold as many stages as labels. */
static uint32_t stage_of(struct report_views *v, const char *label)
{
	size_t n = strcspn(label, " ");
	struct text_key key = { v->stages, label, n };
	uint64_t h = index_hash_bytes(label, n);
	size_t k = index_table_find(&v->stage_index, h, same_text, &key);

	if (k != SIZE_MAX)
		return (uint32_t)k;
	XGROW(v->stages, v->capstages, v->nstages + 1);
	v->stages[v->nstages] = xstrndup(label, n);
	index_table_add(&v->stage_index, h, v->nstages);
	return (uint32_t)v->nstages++;
}

static bool label_waits(struct report_views *v, const char *label)
{
	const char *last = strrchr(label, ' ');

	last = last ? last + 1 : label;
	return pcre2_match(v->wait_re, (PCRE2_SPTR)last, strlen(last), 0, 0, v->md, NULL) >= 0;
}

static uint32_t label_intern(struct report_views *v, const char *text)
{
	const void *key[2] = { v, text };
	uint64_t h = index_hash_bytes(text, strlen(text));
	size_t k = index_table_find(&v->label_index, h, same_label_text, key);

	if (k != SIZE_MAX)
		return (uint32_t)k;
	XGROW(v->labels, v->caplabels, v->nlabels + 1);
	v->labels[v->nlabels].text = xstrdup(text);
	v->labels[v->nlabels].wait = label_waits(v, text);
	v->labels[v->nlabels].stage = stage_of(v, text);
	index_table_add(&v->label_index, h, v->nlabels);
	return (uint32_t)v->nlabels++;
}

/* The caches of the reader's ids hold those of the reader of `sl`. */
static void same_source(struct report_views *v, const struct stats_slice *sl)
{
	if (sl->src == v->cache_src)
		return;
	if (v->label_cache)
		memset(v->label_cache, 0, v->cap_cache * sizeof(*v->label_cache));
	if (v->path_node)
		memset(v->path_node, 0, v->cap_path_node * sizeof(*v->path_node));
	v->cache_src = sl->src;
}

/* Our id of the reader's label `id`. */
static inline uint32_t our_label(struct report_views *v, const struct stats_slice *sl, uint32_t id)
{
	GROW_ZEROED(v->label_cache, v->cap_cache, id);
	if (!v->label_cache[id])
		v->label_cache[id] = label_intern(v, sl->label_text(sl->src, id)) + 1;
	return v->label_cache[id] - 1;
}

static uint32_t obs_core(void *ctx, const char *name, size_t len)
{
	struct report_views *v = ctx;
	struct text_key key = { v->cores, name, len };
	uint64_t h = index_hash_bytes(name, len);
	size_t k = index_table_find(&v->core_index, h, same_text, &key);

	if (k != SIZE_MAX)
		return (uint32_t)k;
	XGROW(v->cores, v->capcores, v->ncores + 1);
	v->cores[v->ncores] = xstrndup(name, len);
	index_table_add(&v->core_index, h, v->ncores);
	return (uint32_t)v->ncores++;
}

static void obs_rank(void *ctx, uint32_t rank, const char *name, size_t len)
{
	struct report_views *v = ctx;

	GROW_ZEROED(v->ranks, v->capranks, rank);
	free(v->ranks[rank]);
	v->ranks[rank] = xstrndup(name, len);
	if (rank >= v->nranks)
		v->nranks = (size_t)rank + 1;
}

/* ---- per slice ---- */

static struct vrow *row_of(struct report_views *v, uint32_t label, int kind)
{
	size_t k = (size_t)label * STATS_KINDS + (size_t)kind;

	GROW_ZEROED(v->row_of, v->cap_row_of, k);
	if (!v->row_of[k]) {
		XGROW(v->rows, v->caprows, v->nrows + 1);
		memset(&v->rows[v->nrows], 0, sizeof(v->rows[0]));
		v->rows[v->nrows].label = label;
		v->rows[v->nrows].kind = kind;
		v->row_of[k] = (uint32_t)++v->nrows;
		free(v->order);
		v->order = NULL;
	}
	return &v->rows[v->row_of[k] - 1];
}

struct idx_key {
	const struct report_views *v;
	uint32_t row, index;
};

static bool same_idx(const void *ctx, size_t item)
{
	const struct idx_key *k = ctx;
	return k->v->idx[item].row == k->row && k->v->idx[item].index == k->index;
}

static uint64_t idx_hash(uint32_t row, uint32_t index)
{
	return index_hash_u64((uint64_t)row << 32 | index);
}

/* Grows row r's index array to hold `index` when it stays dense (as
 * row_sums.h: a label's few indexes may be large), taking in the entries
 * of the indexes it now covers that were hashed; false when not. */
static bool index_dense(struct report_views *v, struct vrow *r, uint32_t row, uint32_t index)
{
	size_t n = capacity_for(r->cap_index_entry, index), old = r->cap_index_entry;

	if (n > ROW_SUMS_FLOOR && n > (size_t)ROW_SUMS_SPREAD * (r->nindexes + 1))
		return false;
	r->index_entry = grow_zeroed(r->index_entry, old, n, sizeof(*r->index_entry));
	r->cap_index_entry = n;
	for (size_t i = old; i < n && v->idx_index.n; i++) {
		struct idx_key key = { v, row, (uint32_t)i };
		size_t k = index_table_find(&v->idx_index, idx_hash(row, (uint32_t)i), same_idx, &key);
		if (k != SIZE_MAX)
			r->index_entry[i] = (uint32_t)k + 1;
	}
	return true;
}

static void add_index(struct report_views *v, uint32_t row, uint32_t index, uint64_t dur)
{
	struct idx_key key = { v, row, index };
	struct vrow *r = &v->rows[row];
	struct vindex *x;
	size_t k;

	if (index < r->cap_index_entry || index_dense(v, r, row, index)) {
		if (!r->index_entry[index]) {
			XGROW(v->idx, v->capidx, v->nidx + 1);
			v->idx[v->nidx] = (struct vindex){ row, index, 0, 0, 0 };
			r->index_entry[index] = (uint32_t)++v->nidx;
			r->nindexes++;
		}
		k = r->index_entry[index] - 1;
	} else if (v->last_idx && same_idx(&key, v->last_idx - 1)) {
		k = v->last_idx - 1;
	} else {
		uint64_t h = idx_hash(row, index);
		k = index_table_find(&v->idx_index, h, same_idx, &key);
		if (k == SIZE_MAX) {
			XGROW(v->idx, v->capidx, v->nidx + 1);
			v->idx[v->nidx] = (struct vindex){ row, index, 0, 0, 0 };
			k = v->nidx++;
			r->nindexes++;
			index_table_add(&v->idx_index, h, k);
		}
		v->last_idx = k + 1;
	}
	x = &v->idx[k];
	x->count++;
	x->total += dur;
	if (dur > x->max)
		x->max = dur;
}

struct node_key {
	const struct report_views *v;
	uint32_t parent, label;
	int kind;
};

static bool same_node(const void *ctx, size_t item)
{
	const struct node_key *k = ctx;
	const struct report_node *n = &k->v->nodes[item];
	return n->parent == k->parent && n->label == k->label && n->kind == k->kind;
}

static size_t child_row(int kind, uint32_t parent)
{
	return parent == REPORT_NO_NODE ? (size_t)kind : STATS_KINDS + (size_t)parent;
}

/* Makes the child table hold `rows` x `labels` cells (both grown by
 * doubling) and refills it from the nodes; or gives it up for the hash
 * table when that is too many cells. */
static void children_grow(struct report_views *v, size_t rows, size_t labels)
{
	size_t nr = v->cap_child_rows ? v->cap_child_rows : 64, nl = v->cap_child_labels ? v->cap_child_labels : 32;

	while (nr < rows)
		nr *= 2;
	while (nl < labels)
		nl *= 2;
	free(v->child_of);
	v->child_of = NULL;
	if (nr * nl > DIRECT_CHILDREN) {
		v->children_hashed = true;
		return;
	}
	v->child_of = xcalloc(nr * nl, sizeof(*v->child_of));
	v->cap_child_rows = nr;
	v->cap_child_labels = nl;
	for (size_t i = 0; i < v->nnodes; i++)
		v->child_of[child_row(v->nodes[i].kind, v->nodes[i].parent) * nl + v->nodes[i].label] = (uint32_t)i + 1;
}

static uint32_t node_find(struct report_views *v, int kind, uint32_t parent, uint32_t label)
{
	struct node_key key = { v, parent, label, kind };
	uint64_t h = index_hash_u64(((uint64_t)parent << 32 | label) * 4 + (uint64_t)kind);
	size_t row = child_row(kind, parent), k;

	if (!v->children_hashed) {
		if (row >= v->cap_child_rows || label >= v->cap_child_labels)
			children_grow(v, row + 1, (size_t)label + 1);
		if (!v->children_hashed && v->child_of[row * v->cap_child_labels + label])
			return v->child_of[row * v->cap_child_labels + label] - 1;
	}
	k = v->children_hashed ? index_table_find(&v->node_index, h, same_node, &key) : SIZE_MAX;
	if (k != SIZE_MAX)
		return (uint32_t)k;
	XGROW(v->nodes, v->capnodes, v->nnodes + 1);
	v->nodes[v->nnodes] = (struct report_node){ parent, label, kind, 0, 0 };
	XGROW(v->node_waits, v->cap_node_waits, v->nnodes + 1);
	v->node_waits[v->nnodes] = v->labels[label].wait || (parent != REPORT_NO_NODE && v->node_waits[parent]);
	index_table_add(&v->node_index, h, v->nnodes);
	if (!v->children_hashed) {
		if (STATS_KINDS + v->nnodes >= v->cap_child_rows)
			children_grow(v, STATS_KINDS + v->nnodes + 1, v->cap_child_labels);
		if (!v->children_hashed)
			v->child_of[row * v->cap_child_labels + label] = (uint32_t)v->nnodes + 1;
	}
	return (uint32_t)v->nnodes++;
}

/* The flame graph's node of a slice: cached per path and core type; a path
 * not seen yet resolved from its nearest ancestor that was (each path of
 * the reader once per core type, however deep). */
static uint32_t node_of(struct report_views *v, const struct stats_slice *sl)
{
	size_t n = 0;
	uint32_t p = sl->path, node = REPORT_NO_NODE;

	/* a parent's number is below its child's: the cache holds the ancestors' */
	GROW_ZEROED(v->path_node, v->cap_path_node, (size_t)p * STATS_KINDS + STATS_KINDS - 1);
	while (p != SLICE_PATH_ROOT && !v->path_node[(size_t)p * STATS_KINDS + (size_t)sl->kind]) {
		XGROW(v->climb, v->cap_climb, n + 1);
		v->climb[n++] = p;
		p = slice_path_parent(sl->paths, p);
	}
	if (p != SLICE_PATH_ROOT)
		node = v->path_node[(size_t)p * STATS_KINDS + (size_t)sl->kind] - 1;
	while (n) {
		p = v->climb[--n];
		node = node_find(v, sl->kind, node, our_label(v, sl, slice_path_label(sl->paths, p)));
		v->path_node[(size_t)p * STATS_KINDS + (size_t)sl->kind] = node + 1;
	}
	return node;
}

static void obs_slice(void *ctx, const struct stats_slice *sl)
{
	struct report_views *v = ctx;
	uint32_t label;
	struct vrow *r;
	struct report_node *n;
	bool waiting;
	uint32_t index = v->whole_index ? sl->index << 8 | (sl->extra & 0xFF) : sl->index;
	size_t k;

	same_source(v, sl);
	label = our_label(v, sl, slice_path_label(sl->paths, sl->path));
	r = row_of(v, label, sl->kind);
	if (sl->extra)
		v->has_extra = true;
	if (sl->index)
		v->has_split_index = true;
	if (v->whole_index && !v->whole_bad && (sl->index >> 24 || sl->extra > 0xFF)) {
		v->whole_bad = true;
		v->whole_bad_label = label;
		v->whole_bad_rank = sl->rank;
		v->whole_bad_index = sl->index;
		v->whole_bad_extra = sl->extra;
	}
	r->count++;
	r->total += sl->dur_ns;
	row_sums_add(&v->by_rank, (uint32_t)(r - v->rows), sl->rank, sl->dur_ns);
	row_sums_add(&v->by_core, (uint32_t)(r - v->rows), sl->core, sl->dur_ns);
	if (index) {
		r->indexed = true;
		v->has_index = true;
	}
	add_index(v, (uint32_t)(r - v->rows), index, sl->dur_ns);
	k = node_of(v, sl); /* may move v->nodes */
	n = &v->nodes[k];
	n->total_ns += sl->dur_ns;
	n->count++;
	waiting = v->node_waits[k];
	k = (size_t)v->labels[label].stage * STATS_KINDS + (size_t)sl->kind;
	if (k >= v->cap_stage) {
		size_t grown = capacity_for(v->cap_stage, k);
		v->stage_wait = grow_zeroed(v->stage_wait, v->cap_stage, grown, sizeof(*v->stage_wait));
		v->stage_busy = grow_zeroed(v->stage_busy, v->cap_stage, grown, sizeof(*v->stage_busy));
		v->cap_stage = grown;
	}
	if (waiting)
		v->stage_wait[k] += sl->self_ns;
	else
		v->stage_busy[k] += sl->self_ns;
	v->kind_total[sl->kind] += sl->self_ns;
}

struct report_views *report_views_new(const char *wait_regex, bool whole_index, struct diag *diag)
{
	struct report_views *v;
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)(wait_regex ? wait_regex : REPORT_WAIT_DEFAULT),
				       PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);

	if (!re) {
		PCRE2_UCHAR msg[160];
		pcre2_get_error_message(err, msg, sizeof(msg));
		diag_pos(diag, DIAG_ERROR, "--wait", 1, (size_t)off + 1, "%s in the regular expression '%s'",
			 (const char *)msg, wait_regex);
		return NULL;
	}
	v = xcalloc(1, sizeof(*v));
	v->wait_re = re;
	v->md = pcre2_match_data_create_from_pattern(re, NULL);
	v->obs = (struct stats_observer){ v, obs_core, obs_rank, obs_slice };
	v->whole_index = whole_index;
	return v;
}

static void free_strings(char **s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(s[i]);
	free(s);
}

void report_views_free(struct report_views *v)
{
	if (!v)
		return;
	pcre2_match_data_free(v->md);
	pcre2_code_free(v->wait_re);
	for (size_t i = 0; i < v->nlabels; i++)
		free(v->labels[i].text);
	free(v->labels);
	index_table_free(&v->label_index);
	free_strings(v->stages, v->nstages);
	index_table_free(&v->stage_index);
	free(v->label_cache);
	for (size_t i = 0; i < v->nrows; i++)
		free(v->rows[i].index_entry);
	row_sums_release(&v->by_rank);
	row_sums_release(&v->by_core);
	free(v->rows);
	free(v->row_of);
	free_strings(v->cores, v->ncores);
	index_table_free(&v->core_index);
	free_strings(v->ranks, v->capranks);
	free(v->idx);
	index_table_free(&v->idx_index);
	free(v->nodes);
	free(v->child_of);
	index_table_free(&v->node_index);
	free(v->node_waits);
	free(v->path_node);
	free(v->climb);
	free(v->stage_wait);
	free(v->stage_busy);
	free(v->order);
	free(v);
}

const struct stats_observer *report_views_observer(struct report_views *v)
{
	return &v->obs;
}

bool report_views_has_index(const struct report_views *v)
{
	return v->has_index;
}

bool report_views_has_extra(const struct report_views *v)
{
	return v->has_extra;
}

int report_views_check_whole_index(const struct report_views *v, const char *input, struct diag *diag)
{
	if (!v->whole_index)
		return 0;
	if (v->whole_bad) {
		diag_pos(diag, DIAG_ERROR, input, 0, 0,
			 "--whole-index: '%s' on %s records index %" PRIu32 " and extra %" PRIu32
			 ", which no record's bits 32-63 hold (an index of 24 bits, an extra of 8): the index is whole "
			 "already (collect --whole-index wrote the trace); drop --whole-index",
			 v->labels[v->whole_bad_label].text, report_views_rank_name(v, v->whole_bad_rank),
			 v->whole_bad_index, v->whole_bad_extra);
		return -1;
	}
	if (v->has_split_index && !v->has_extra) {
		diag_pos(diag, DIAG_ERROR, input, 0, 0,
			 "--whole-index: slices record an index but none an extra id: the index is whole already "
			 "(collect --whole-index wrote the trace, or the three-argument MoeTracing recorded it); "
			 "--whole-index would read it as index x 256: drop it");
		return -1;
	}
	return 0;
}

/* ---- the tables ---- */

static const struct report_views *sort_views; /* qsort has no context */

static int kind_rank(int kind)
{
	return kind == STATS_OTHER ? 9 : kind;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct vrow *x = &sort_views->rows[*(const size_t *)a], *y = &sort_views->rows[*(const size_t *)b];
	if (x->kind != y->kind)
		return kind_rank(x->kind) - kind_rank(y->kind);
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(sort_views->labels[x->label].text, sort_views->labels[y->label].text);
}

/* The rows in table order: by core type, then total time (as report's rows). */
static const size_t *row_order(struct report_views *v)
{
	if (!v->order) {
		v->order = xcalloc(v->nrows + 1, sizeof(*v->order));
		for (size_t i = 0; i < v->nrows; i++)
			v->order[i] = i;
		sort_views = v;
		xqsort(v->order, v->nrows, sizeof(*v->order), cmp_rows);
		sort_views = NULL;
	}
	return v->order;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The lower median of n sorted values (the nearest rank of p50). */
static uint64_t median(const uint64_t *sorted, size_t n)
{
	return n ? sorted[(n + 1) / 2 - 1] : 0;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static const struct report_column spread_cols[] = {
	{ "label", RC_TEXT }, { "core", RC_TEXT },	 { "n", RC_COUNT },	  { "min", RC_NS },
	{ "median", RC_NS },  { "max", RC_NS },	 { "slowest", RC_TEXT }, { "imbalance", RC_FACTOR },
};

/* Per row, the spread of its per-rank (or per-core) totals over the ranks
 * (cores) where it occurs. */
static struct report_table *spread(struct report_views *v, bool by_rank)
{
	static struct report_column rank_cols[8], core_cols[8];
	struct report_column *cols = by_rank ? rank_cols : core_cols;
	struct report_table *t;
	const size_t *order = row_order(v);
	uint64_t *vals = NULL;
	struct row_sums_entry *e = NULL;
	size_t cap = 0, cape = 0;

	memcpy(cols, spread_cols, sizeof(spread_cols));
	cols[2].name = by_rank ? "ranks" : "cores";
	t = report_table_new(by_rank ? "by_rank" : "by_core",
			     by_rank ? "Per label across ranks" : "Per label across cores (each core summed over ranks)",
			     cols, 8);
	for (size_t i = 0; i < v->nrows; i++) {
		const struct vrow *r = &v->rows[order[i]];
		size_t n = row_sums_list(by_rank ? &v->by_rank : &v->by_core, (uint32_t)order[i], &e, &cape), slowest = 0;
		union report_cell *c;

		XGROW(vals, cap, n + 1);
		/* the slowest: the largest total, of the lowest ordinal among equals */
		for (size_t k = 0; k < n; k++) {
			vals[k] = e[k].total;
			if (e[k].total > e[slowest].total || (e[k].total == e[slowest].total && e[k].at < e[slowest].at))
				slowest = k;
		}
		slowest = n ? e[slowest].at : 0;
		xqsort(vals, n, sizeof(*vals), cmp_u64);
		c = report_table_row(t);
		report_cell_text(&c[0], v->labels[r->label].text);
		report_cell_text(&c[1], stats_kind_name(r->kind));
		c[2].n = n;
		c[3].n = n ? vals[0] : 0;
		c[4].n = median(vals, n);
		c[5].n = n ? vals[n - 1] : 0;
		report_cell_text(&c[6], by_rank ? (slowest < v->nranks && v->ranks[slowest] ? v->ranks[slowest] : "?")
						: (slowest < v->ncores ? v->cores[slowest] : "?"));
		c[7].x = ratio(c[5].n, c[4].n);
	}
	free(vals);
	free(e);
	return t;
}

struct report_table *report_views_by_rank(struct report_views *v)
{
	return spread(v, true);
}

struct report_table *report_views_by_core(struct report_views *v)
{
	return spread(v, false);
}

static int cmp_idx(const void *a, const void *b)
{
	const struct vindex *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The index entries of each row, sorted by (table position of the row, index). */
static struct vindex *sorted_indexes(struct report_views *v)
{
	const size_t *order = row_order(v);
	uint32_t *pos = xcalloc(v->nrows + 1, sizeof(*pos));
	struct vindex *x = xcalloc(v->nidx + 1, sizeof(*x));

	for (size_t i = 0; i < v->nrows; i++)
		pos[order[i]] = (uint32_t)i;
	for (size_t i = 0; i < v->nidx; i++) {
		x[i] = v->idx[i];
		x[i].row = pos[x[i].row];
	}
	xqsort(x, v->nidx, sizeof(*x), cmp_idx);
	free(pos);
	return x;
}

static uint64_t mean_of(const struct vindex *x)
{
	return x->count ? x->total / x->count : 0;
}

/* The median of the means of x[0 .. n). */
static uint64_t median_mean(const struct vindex *x, size_t n)
{
	uint64_t *m = xcalloc(n + 1, sizeof(*m)), r;

	for (size_t i = 0; i < n; i++)
		m[i] = mean_of(&x[i]);
	xqsort(m, n, sizeof(*m), cmp_u64);
	r = median(m, n);
	free(m);
	return r;
}

struct report_table *report_views_by_index(struct report_views *v)
{
	static const struct report_column cols[] = {
		{ "label", RC_TEXT }, { "core", RC_TEXT }, { "index", RC_COUNT }, { "count", RC_COUNT },
		{ "total", RC_NS },   { "mean", RC_NS },   { "max", RC_NS },      { "vs_median", RC_FACTOR },
	};
	struct report_table *t = report_table_new("by_index", "Per label and index", cols, 8);
	const size_t *order = row_order(v);
	struct vindex *x = sorted_indexes(v);

	for (size_t i = 0, j; i < v->nidx; i = j) {
		const struct vrow *r = &v->rows[order[x[i].row]];
		uint64_t med;
		for (j = i; j < v->nidx && x[j].row == x[i].row; j++)
			;
		if (!r->indexed)
			continue;
		med = median_mean(x + i, j - i);
		for (size_t k = i; k < j; k++) {
			union report_cell *c = report_table_row(t);
			report_cell_text(&c[0], v->labels[r->label].text);
			report_cell_text(&c[1], stats_kind_name(r->kind));
			c[2].n = x[k].index;
			c[3].n = x[k].count;
			c[4].n = x[k].total;
			c[5].n = mean_of(&x[k]);
			c[6].n = x[k].max;
			c[7].x = ratio(mean_of(&x[k]), med);
		}
	}
	free(x);
	return t;
}

static int cmp_mean_desc(const void *a, const void *b)
{
	uint64_t x = mean_of(a), y = mean_of(b);
	if (x != y)
		return x > y ? -1 : 1;
	return cmp_idx(a, b);
}

/* How many of the slowest indexes a row names. */
#define SLOWEST_NAMED 3

struct report_table *report_views_slowest_index(struct report_views *v)
{
	static const struct report_column cols[] = {
		{ "label", RC_TEXT }, { "core", RC_TEXT },	  { "indexes", RC_COUNT }, { "slowest", RC_TEXT },
		{ "mean", RC_NS },    { "median_mean", RC_NS }, { "ratio", RC_FACTOR },
	};
	struct report_table *t = report_table_new("slowest_index", "The slowest indexes of each label (by mean)", cols, 7);
	const size_t *order = row_order(v);
	struct vindex *x = sorted_indexes(v);

	for (size_t i = 0, j; i < v->nidx; i = j) {
		const struct vrow *r = &v->rows[order[x[i].row]];
		union report_cell *c;
		char names[SLOWEST_NAMED * 12 + 1] = "";
		uint64_t med;
		for (j = i; j < v->nidx && x[j].row == x[i].row; j++)
			;
		if (!r->indexed)
			continue;
		med = median_mean(x + i, j - i);
		xqsort(x + i, j - i, sizeof(*x), cmp_mean_desc);
		for (size_t k = i; k < j && k < i + SLOWEST_NAMED; k++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%u", k > i ? ", " : "",
				 x[k].index);
		c = report_table_row(t);
		report_cell_text(&c[0], v->labels[r->label].text);
		report_cell_text(&c[1], stats_kind_name(r->kind));
		c[2].n = j - i;
		report_cell_text(&c[3], names);
		c[4].n = mean_of(&x[i]);
		c[5].n = med;
		c[6].x = ratio(mean_of(&x[i]), med);
	}
	free(x);
	return t;
}

struct stage_row {
	int kind;
	uint32_t stage;
	uint64_t wait, busy;
};

static int cmp_stage(const void *a, const void *b)
{
	const struct stage_row *x = a, *y = b;
	if (x->kind != y->kind)
		return kind_rank(x->kind) - kind_rank(y->kind);
	if (x->wait + x->busy != y->wait + y->busy)
		return x->wait + x->busy > y->wait + y->busy ? -1 : 1;
	return x->stage < y->stage ? -1 : x->stage > y->stage;
}

struct report_table *report_views_by_stage(struct report_views *v)
{
	static const struct report_column cols[] = {
		{ "core", RC_TEXT }, { "stage", RC_TEXT },	{ "time", RC_NS },
		{ "wait", RC_NS },   { "wait_share", RC_RATIO }, { "core_share", RC_RATIO },
	};
	struct report_table *t = report_table_new(
		"by_stage", "Wait share per core type and stage (own time of the points; waiting: in a point whose call waits)",
		cols, 6);
	struct stage_row *s = xcalloc(v->cap_stage + 1, sizeof(*s));
	size_t n = 0;

	for (size_t k = 0; k < v->cap_stage; k++)
		if (v->stage_wait[k] || v->stage_busy[k])
			s[n++] = (struct stage_row){ (int)(k % STATS_KINDS), (uint32_t)(k / STATS_KINDS), v->stage_wait[k],
						     v->stage_busy[k] };
	xqsort(s, n, sizeof(*s), cmp_stage);
	for (size_t i = 0; i < n; i++) {
		union report_cell *c;
		if (i == 0 || s[i].kind != s[i - 1].kind) {
			uint64_t wait = 0;
			for (size_t k = i; k < n && s[k].kind == s[i].kind; k++)
				wait += s[k].wait;
			c = report_table_row(t);
			report_cell_text(&c[0], stats_kind_name(s[i].kind));
			report_cell_text(&c[1], "(all)");
			c[2].n = v->kind_total[s[i].kind];
			c[3].n = wait;
			c[4].x = ratio(wait, v->kind_total[s[i].kind]);
			c[5].x = v->kind_total[s[i].kind] ? 1.0 : 0.0;
		}
		c = report_table_row(t);
		report_cell_text(&c[0], stats_kind_name(s[i].kind));
		report_cell_text(&c[1], v->stages[s[i].stage]);
		c[2].n = s[i].wait + s[i].busy;
		c[3].n = s[i].wait;
		c[4].x = ratio(s[i].wait, s[i].wait + s[i].busy);
		c[5].x = ratio(s[i].wait + s[i].busy, v->kind_total[s[i].kind]);
	}
	free(s);
	return t;
}

struct report_table *report_views_labels(const struct stats_row *rows, size_t n)
{
	static const struct report_column cols[] = {
		{ "label", RC_TEXT }, { "core", RC_TEXT }, { "count", RC_COUNT }, { "total", RC_NS }, { "mean", RC_NS },
		{ "p50", RC_NS },     { "p99", RC_NS },    { "max", RC_NS },      { "share", RC_RATIO },
	};
	struct report_table *t = report_table_new("labels", "Per label and core type", cols, 9);

	for (size_t i = 0; i < n; i++) {
		union report_cell *c = report_table_row(t);
		report_cell_text(&c[0], rows[i].label);
		report_cell_text(&c[1], stats_kind_name(rows[i].kind));
		c[2].n = rows[i].count;
		c[3].n = rows[i].total_ns;
		c[4].n = rows[i].mean_ns;
		c[5].n = rows[i].p50_ns;
		c[6].n = rows[i].p99_ns;
		c[7].n = rows[i].max_ns;
		c[8].x = rows[i].share;
	}
	return t;
}

/* ---- the flame graph and the heatmap ---- */

const struct report_node *report_views_nodes(struct report_views *v, size_t *n)
{
	*n = v->nnodes;
	return v->nodes;
}

const char *report_views_label(const struct report_views *v, uint32_t label)
{
	return v->labels[label].text;
}

bool report_views_label_waits(const struct report_views *v, uint32_t label)
{
	return v->labels[label].wait;
}

size_t report_views_ranks(const struct report_views *v)
{
	return v->nranks;
}

const char *report_views_rank_name(const struct report_views *v, size_t rank)
{
	return rank < v->nranks && v->ranks[rank] ? v->ranks[rank] : "?";
}

size_t report_views_rows(struct report_views *v)
{
	row_order(v);
	return v->nrows;
}

void report_views_row(const struct report_views *v, size_t row, const char **label, int *kind, uint64_t *by_rank)
{
	const struct vrow *r = &v->rows[v->order[row]];
	struct row_sums_entry *e = NULL;
	size_t cap = 0, n = row_sums_list(&v->by_rank, (uint32_t)v->order[row], &e, &cap);

	*label = v->labels[r->label].text;
	*kind = r->kind;
	memset(by_rank, 0, v->nranks * sizeof(*by_rank));
	for (size_t k = 0; k < n; k++)
		if (e[k].at < v->nranks)
			by_rank[e[k].at] = e[k].total;
	free(e);
}
