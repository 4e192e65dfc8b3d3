/* From the tensors of one rank dump to per-core slots: which layout each
 * slot uses (dump_layout.h: moe-v1, the self-describing moe-v2), which core wrote it
 * (AIC b, AIV b.s) and where its records and cycles are. Bounds and counts
 * are checked here, so consumers index records without further checks.
 *
 * Core names (by position, where the slot's layout does not say: moe-v1):
 *  - a list of two tensors (B, S) and (V, S): AIC 0..B-1 from the first,
 *    AIV v from the second, named "AIV v/r.v%r" with r = V/B when V is a
 *    multiple r >= 2 of B (1C2V: AIV 3.1 is sub-block 1 of group 3);
 *  - a list of three tensors of B rows each (1C2V grouping): AIC b, AIV b.0,
 *    AIV b.1 from the first, second and third;
 *  - anything else (one tensor, .npy, .bin): slots in order, the first
 *    `cores aic A` are AIC, the next `cores aiv V` AIV (grouped as above),
 *    which is how the device numbers them (AIC b in slot b, AIV v in B + v).
 * moe-v2 slots name themselves: core type, GetBlockIdx(), GetSubBlockIdx(). */
#ifndef AUTOTRACE_COLLECT_SLOT_H
#define AUTOTRACE_COLLECT_SLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "dump.h"
#include "dump_layout.h"
#include "rule_policy.h"

enum core_kind { CORE_AIC = 1, CORE_AIV = 2 };

struct collect_slot {
	const struct dump_layout *layout;
	enum core_kind kind;
	unsigned block, sub;
	bool grouped;                /* AIV named "AIV block.sub" */
	size_t index;                /* slot number across the dump's tensors */
	const char *tensor;          /* the tensor's name in the file */
	size_t S;                    /* slot size in words */
	uint64_t n;                  /* records */
	uint64_t capacity;
	uint64_t dropped;            /* refused by the device guard (layouts that count them) */
	uint64_t stamp;              /* build stamp (layouts that carry one), 0 when none */
	int64_t entry;               /* cycle at kernel entry */
	const int64_t *rec;          /* record k at rec[k * rstride] */
	ptrdiff_t rstride;
	const int64_t *cyc;          /* its cycle at cyc[k * cstride] */
	ptrdiff_t cstride;
	uint64_t sort;               /* track order: block, then AIC, AIV sub 0, 1, ... */
	char name[32];               /* "AIC 3", "AIV 3.1", "AIV 7" */
};

/* How the slots named by position got their core names. */
enum collect_naming { NAMED_BY_TENSORS, NAMED_BY_RULES };

struct collect_slots {
	struct collect_slot *v;      /* written slots (n >= 0 records), sorted by `sort` */
	size_t n;
	size_t total;                /* slots in the dump, written or not */
	size_t empty;                /* never written (v1 counter 0, v2 all zero) */
	size_t by_layout[DUMP_LAYOUT_COUNT]; /* written slots per layout (dump_layout_index) */
	size_t by_position;          /* written slots of layouts that do not name their cores */
	/* what the dump's shapes say, for the notes when the rules disagree */
	enum collect_naming naming;
	unsigned shape_aic, shape_aiv; /* NAMED_BY_TENSORS: slots per core type */
	size_t shape_words;          /* words per slot of a 2-D tensor, 0 for a flat one */
};

/* Decoding refuses a flat (1-D) dump, of the layout that does not say its
 * size (moe-v1), that the rules' `slot` cuts into another number of slots
 * than `cores` names while another slot size reads it cleanly (the slices
 * would be garbage): the message names both. */

/* Decodes `d` with the collect settings of `p`. 0, or -1 after reporting
 * `file: error: ...` (corrupt slot, sizes that do not divide, no slot
 * written at all). The slots point into d's tensors. */
int collect_slots_decode(const struct dump *d, const struct rule_policy *p, struct collect_slots *out,
			 struct diag *diag);
void collect_slots_release(struct collect_slots *s);

/* Sets s->name and s->sort from kind, block, sub and grouped (inline: the
 * layouts that name their cores call it, and collect_slot.c calls them). */
static inline void collect_slot_name(struct collect_slot *s)
{
	if (s->kind == CORE_AIC)
		snprintf(s->name, sizeof(s->name), "AIC %u", s->block);
	else if (s->grouped)
		snprintf(s->name, sizeof(s->name), "AIV %u.%u", s->block, s->sub);
	else
		snprintf(s->name, sizeof(s->name), "AIV %u", s->block);
	s->sort = (uint64_t)s->block << 16 | (s->kind == CORE_AIC ? 0 : 1u + s->sub);
}

static inline int64_t collect_slot_word(const struct collect_slot *s, uint64_t k)
{
	return s->rec[(ptrdiff_t)k * s->rstride];
}

static inline int64_t collect_slot_cycle(const struct collect_slot *s, uint64_t k)
{
	return s->cyc[(ptrdiff_t)k * s->cstride];
}

/* Core filter: a comma-separated list of "aic", "aiv", "aic3", "aiv3",
 * "aiv3.1" (case and spaces ignored). True when `name` is selected. */
bool collect_core_selected(const char *filter, const char *name);
/* True when every item of `filter` has one of those forms; else false with
 * the first bad item in `bad` (capacity cap). */
bool collect_core_spec_valid(const char *filter, char *bad, size_t cap);

#endif
