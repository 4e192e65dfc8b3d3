/* autotrace inspect: what profiling dumps hold, before any pairing: the
 * tensors, the slot layout, written and empty slots, record counts, records
 * dropped, build stamps, first and last cycles, and (with --map) the ids the
 * map does not know. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect_slot.h"
#include "commands.h"
#include "dump.h"
#include "dump_layout.h"
#include "exit_status.h"
#include "index_table.h"
#include "point_map.h"
#include "rule_find.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	char layouts[128];

	fputs("Usage: autotrace inspect [options] DUMP...\n"
	      "\n"
	      "Show what profiling dumps (files or directories of rank*.{pt,npy,bin}) hold:\n",
	      out);
	fprintf(out, "tensors, slot layout (%s), written and never-written slots,\n",
		dump_layout_names(layouts, sizeof(layouts), " / ", NULL));
	fputs("records per core type, records dropped on the device, build stamps, and\n"
	      "the first and last cycles.\n"
	      "\n"
	      "  -m, --map FILE      also list the ids the map lacks, and compare stamps\n"
	      "      --slots         one line per written slot\n"
	      "      --rules FILE    rules file (layout, cores, slot size)\n"
	      "  -h, --help          this help\n"
	      "\n"
	      "Exit status: 0; 1 when --map is given and ids are absent from it or the\n"
	      "build stamps differ; 2 when a dump cannot be read.\n",
	      out);
}

/* id -> count: the counts in order of first sight, indexed by id
 * (index_table.h, the program's one hash table). */
struct idcount {
	struct idcount_entry {
		uint32_t id;
		uint64_t n;
	} *v;
	size_t len, cap;
	struct index_table index;
};

struct idcount_key {
	const struct idcount *t;
	uint32_t id;
};

static bool same_id(const void *ctx, size_t item)
{
	const struct idcount_key *k = ctx;
	return k->t->v[item].id == k->id;
}

/* The entry of `id`, or NULL. */
static struct idcount_entry *idc_get(const struct idcount *t, uint32_t id)
{
	struct idcount_key key = { t, id };
	size_t k = index_table_find(&t->index, index_hash_u64(id), same_id, &key);

	return k == SIZE_MAX ? NULL : &t->v[k];
}

static void idc_add(struct idcount *t, uint32_t id)
{
	struct idcount_entry *e = idc_get(t, id);

	if (!e) {
		XGROW(t->v, t->cap, t->len + 1);
		e = &t->v[t->len];
		e->id = id;
		e->n = 0;
		index_table_add(&t->index, index_hash_u64(id), t->len++);
	}
	e->n++;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static const char *format_name(enum dump_format f)
{
	return f == DUMP_PT ? "torch.save archive" : f == DUMP_NPY ? "numpy .npy" : "raw int64";
}

/* "moe-v2", or "mixed moe-v1/moe-v2" when the written slots have several
 * layouts. */
static const char *layouts_text(const struct collect_slots *sl, char *buf, size_t cap)
{
	size_t kinds = 0, len;

	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		kinds += sl->by_layout[i] != 0;
	len = (size_t)snprintf(buf, cap, "%s", kinds > 1 ? "mixed " : "");
	for (size_t i = 0, k = 0; i < DUMP_LAYOUT_COUNT && len < cap; i++)
		if (sl->by_layout[i])
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", k++ ? "/" : "", dump_layout_at(i)->name);
	return buf;
}

/* Is a slot written in a layout that counts the records the device dropped? */
static bool any_counting_slot(const struct collect_slots *sl)
{
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		if (sl->by_layout[i] && dump_layout_at(i)->counts_dropped)
			return true;
	return false;
}

/* 0 clean, 1 findings, -1 unreadable */
static int inspect_one(const struct dump_input *in, const struct rule_policy *p, const struct point_map *map,
		       bool slots_detail, struct diag *diag)
{
	struct dump *d = dump_read(in->path, diag);
	struct collect_slots sl;
	struct idcount ids = { 0 };
	uint64_t rec[3] = { 0 }, dropped = 0, full[DUMP_LAYOUT_COUNT] = { 0 }, stamps[8];
	size_t nstamps = 0, nslots_kind[3] = { 0 };
	char layouts[128];
	int64_t entry_min = INT64_MAX, entry_max = INT64_MIN, cyc_min = INT64_MAX, cyc_max = INT64_MIN;
	int rc = 0;

	if (!d)
		return -1;
	printf("%s: rank %d, %s, %zu tensor%s:", in->path, in->rank, format_name(d->format), d->ntensors,
	       d->ntensors == 1 ? "" : "s");
	for (size_t i = 0; i < d->ntensors; i++) {
		const struct dump_tensor *t = &d->tensors[i];
		printf("%s%s%sint%d ", i ? ", " : " ", t->name, t->name[0] ? " " : "", t->elem_bytes * 8);
		if (t->ndim == 1)
			printf("(%zu)", t->cols);
		else
			printf("(%zu, %zu)", t->rows, t->cols);
	}
	putchar('\n');
	if (collect_slots_decode(d, p, &sl, diag) != 0) {
		dump_free(d);
		return -1;
	}
	for (size_t i = 0; i < sl.n; i++) {
		const struct collect_slot *s = &sl.v[i];
		rec[s->kind] += s->n;
		nslots_kind[s->kind]++;
		dropped += s->dropped;
		if (!s->layout->counts_dropped && s->n == s->capacity)
			full[dump_layout_index(s->layout)]++;
		if (s->layout->stamped) {
			bool known = false;
			for (size_t k = 0; k < nstamps; k++)
				known |= stamps[k] == s->stamp;
			if (!known && nstamps < 8)
				stamps[nstamps++] = s->stamp;
		}
		if (s->entry < entry_min)
			entry_min = s->entry;
		if (s->entry > entry_max)
			entry_max = s->entry;
		for (uint64_t k = 0; k < s->n; k++) {
			int64_t c = collect_slot_cycle(s, k);
			if (c < cyc_min)
				cyc_min = c;
			if (c > cyc_max)
				cyc_max = c;
			idc_add(&ids, (uint32_t)collect_slot_word(s, k));
		}
	}
	printf("  layout %s, slot %zu words; slots %zu: %zu written (AIC %zu, AIV %zu), %zu never written\n",
	       layouts_text(&sl, layouts, sizeof(layouts)), sl.v[0].S, sl.total, sl.n, nslots_kind[CORE_AIC],
	       nslots_kind[CORE_AIV], sl.empty);
	printf("  records %" PRIu64 " (AIC %" PRIu64 ", AIV %" PRIu64 "), distinct ids %zu\n",
	       rec[CORE_AIC] + rec[CORE_AIV], rec[CORE_AIC], rec[CORE_AIV], ids.len);
	if (any_counting_slot(&sl))
		printf("  dropped on the device: %" PRIu64 "\n", dropped);
	for (size_t i = 0; i < DUMP_LAYOUT_COUNT; i++)
		if (sl.by_layout[i] && !dump_layout_at(i)->counts_dropped)
			printf("  %s slots full (records may be lost, not counted): %" PRIu64 "\n", dump_layout_at(i)->name,
			       full[i]);
	if (nstamps) {
		printf("  build stamp%s:", nstamps > 1 ? "s" : "");
		for (size_t k = 0; k < nstamps; k++)
			printf(" %016" PRIx64 "%s", stamps[k], stamps[k] ? "" : " (not preprocessed)");
		putchar('\n');
	}
	if (cyc_min <= cyc_max)
		printf("  cycles: entry %" PRId64 " .. %" PRId64 ", records %" PRId64 " .. %" PRId64
		       " (%.3f us after the first entry at %.0f MHz)\n",
		       entry_min, entry_max, cyc_min, cyc_max, (double)(cyc_max - entry_min) * 1e6 / (double)p->clock_hz,
		       (double)p->clock_hz / 1e6);
	if (slots_detail) {
		printf("  %5s  %-8s %-6s %7s %7s %20s %20s %20s\n", "slot", "core", "layout", "records", "dropped", "entry",
		       "first", "last");
		for (size_t i = 0; i < sl.n; i++) {
			const struct collect_slot *s = &sl.v[i];
			printf("  %5zu  %-8s %-6s %7" PRIu64 " %7" PRIu64 " %20" PRId64, s->index, s->name,
			       s->layout->tag, s->n, s->dropped, s->entry);
			if (s->n)
				printf(" %20" PRId64 " %20" PRId64 "\n", collect_slot_cycle(s, 0), collect_slot_cycle(s, s->n - 1));
			else
				printf(" %20s %20s\n", "-", "-");
		}
	}
	if (map) {
		uint32_t *absent = xmalloc((ids.len + 1) * sizeof(uint32_t));
		size_t na = 0;
		uint64_t unpre = 0;
		for (size_t i = 0; i < ids.len; i++) {
			if (ids.v[i].id == POINT_MAP_UNPREPROCESSED_ID)
				unpre = ids.v[i].n;
			else if (!point_map_get(map, ids.v[i].id))
				absent[na++] = ids.v[i].id;
		}
		xqsort(absent, na, sizeof(*absent), cmp_u32);
		if (na) {
			printf("  ids absent from the map (%zu):", na);
			for (size_t k = 0; k < na && k < 32; k++)
				printf(" %u (x%" PRIu64 ")", absent[k], idc_get(&ids, absent[k])->n);
			printf("%s\n", na > 32 ? " ..." : "");
			rc = 1;
		} else {
			printf("  every id is in the map\n");
		}
		if (unpre) {
			printf("  %" PRIu64 " records of the reserved id 0xFFFFFFFF: this build was not preprocessed\n", unpre);
			rc = 1;
		}
		if (map->has_stamp)
			for (size_t k = 0; k < nstamps; k++)
				if (stamps[k] && stamps[k] != map->build_stamp) {
					printf("  build stamp %016" PRIx64 " is not the map's %016" PRIx64
					       ": the dumps and point_map.json come from different builds\n",
					       stamps[k], map->build_stamp);
					rc = 1;
				}
		free(absent);
	}
	free(ids.v);
	index_table_free(&ids.index);
	collect_slots_release(&sl);
	dump_free(d);
	return rc;
}

int cmd_inspect(int argc, char **argv, struct diag *diag)
{
	enum { O_RULES = 256, O_SLOTS };
	static const struct option opts[] = { { "map", required_argument, NULL, 'm' },
					      { "slots", no_argument, NULL, O_SLOTS },
					      { "rules", required_argument, NULL, O_RULES },
					      { "help", no_argument, NULL, 'h' },
					      { NULL, 0, NULL, 0 } };
	const char *map_path = NULL, *rules_path = NULL;
	bool slots = false;
	struct rule_policy *policy = NULL;
	struct point_map *map = NULL;
	struct dump_input *in = NULL;
	size_t nin = 0;
	int c, status = EXIT_BAD_INPUT;

	optind = 1;
	while ((c = getopt_long(argc, argv, "m:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			map_path = optarg;
			break;
		case O_SLOTS:
			slots = true;
			break;
		case O_RULES:
			rules_path = optarg;
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
		diag_plain(diag, DIAG_ERROR, "inspect: no dump given");
		return EXIT_BAD_INPUT;
	}
	policy = rule_find_and_load(rules_path, ".", diag);
	if (!policy)
		goto out;
	if (map_path && !(map = point_map_load(map_path, diag)))
		goto out;
	if (dump_inputs_expand(argv + optind, (size_t)(argc - optind), &in, &nin, diag) != 0)
		goto out;
	status = EXIT_OK;
	for (size_t i = 0; i < nin; i++) {
		int rc = inspect_one(&in[i], policy, map, slots, diag);
		fflush(stdout);
		if (rc < 0)
			status = EXIT_BAD_INPUT;
		else if (rc > 0 && status == EXIT_OK)
			status = EXIT_FINDINGS;
	}
out:
	dump_inputs_free(in, nin);
	point_map_free(map);
	rule_policy_free(policy);
	return status;
}
