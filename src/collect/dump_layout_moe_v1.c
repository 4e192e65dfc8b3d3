/* Slot layout moe-v1 (device/LAYOUT.md): word 0 the counter n + 1, records
 * growing up from word 1, their cycles down from word S-2, the entry cycle
 * in word S-1. No mark, no core identity, no drop count, no build stamp: it
 * reads every slot no other layout claims, and its slots are named by
 * position (collect_slot.h). */
#include "dump_layout.h"

#include "collect_slot.h"

static bool v1_unwritten(const int64_t *w, size_t S)
{
	(void)S;
	return w[0] == 0;
}

/* The counter is 1 + a record count that fits. */
static bool v1_plausible(const int64_t *w, size_t S)
{
	return w[0] >= 1 && (uint64_t)(w[0] - 1) <= (S - 2) / 2;
}

static int v1_decode(const char *path, struct collect_slot *s, const int64_t *w, size_t S, struct diag *diag)
{
	int64_t counter = w[0];

	s->capacity = (S - 2) / 2;
	if (counter < 1 || (uint64_t)(counter - 1) > s->capacity) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "slot %zu (%s): moe-v1 counter %lld is not 1 + a record count of at most %llu "
			 "(a wrong `slot` size in the rules, or not a moe-v1 dump?)",
			 s->index, s->name, (long long)counter, (unsigned long long)s->capacity);
		return -1;
	}
	s->n = (uint64_t)(counter - 1);
	s->entry = w[S - 1];
	s->rec = w + 1;
	s->rstride = 1;
	s->cyc = w + S - 2;
	s->cstride = -1;
	if (s->entry == 0 && s->n)
		s->entry = w[S - 2];
	return 0;
}

const struct dump_layout dump_layout_moe_v1 = {
	.name = "moe-v1",
	.tag = "v1",
	.claims = NULL,
	.slot_words = NULL,
	.unwritten = v1_unwritten,
	.plausible = v1_plausible,
	.decode = v1_decode,
	.names_cores = false,
	.counts_dropped = false,
	.stamped = false,
};
