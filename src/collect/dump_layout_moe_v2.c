/* Slot layout moe-v2 (device/LAYOUT.md): an 8-word header (magic, version,
 * header length; core type, sub-blocks, slot size; block and sub-block
 * index; record count; dropped records; build stamp; entry cycle), then
 * (word, cycle) pairs. The slot says which core wrote it and how large it
 * is. */
#include "dump_layout.h"

#include "collect_slot.h"

/* word 0: the magic "MOET" in bits 32..63 */
#define MOE_V2_MAGIC 0x4D4F4554u
#define MOE_V2_MIN_HEADER 8

static bool v2_claims(const int64_t *w, size_t S)
{
	(void)S;
	return ((uint64_t)w[0] >> 32) == MOE_V2_MAGIC;
}

static size_t v2_slot_words(const int64_t *w, size_t total)
{
	uint64_t S;

	if (total < 2 || !v2_claims(w, total))
		return 0;
	S = (uint64_t)w[1] >> 32;
	return S >= MOE_V2_MIN_HEADER && S <= total ? (size_t)S : 0;
}

static bool v2_unwritten(const int64_t *w, size_t S)
{
	(void)S;
	for (size_t i = 0; i < MOE_V2_MIN_HEADER; i++)
		if (w[i])
			return false;
	return true;
}

static int v2_decode(const char *path, struct collect_slot *s, const int64_t *w, size_t S, struct diag *diag)
{
	uint64_t w0 = (uint64_t)w[0], w1 = (uint64_t)w[1];
	unsigned version = (unsigned)(w0 & 0xFFFF), hlen = (unsigned)((w0 >> 16) & 0xFFFF);
	unsigned type = (unsigned)(w1 & 0xFF), subnum = (unsigned)((w1 >> 8) & 0xFF);
	uint64_t slot_words = w1 >> 32;
	int64_t n = w[4], dropped = w[5];

	if (version < 2 || hlen < MOE_V2_MIN_HEADER || hlen > S) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "slot %zu: moe-v2 header with version %u and header length %u is corrupt", s->index, version, hlen);
		return -1;
	}
	if (slot_words != S) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "slot %zu: the moe-v2 header says %llu words per slot, the dump is cut in slots of %zu "
			 "(fix `slot` in the rules, or the tensor shape)",
			 s->index, (unsigned long long)slot_words, S);
		return -1;
	}
	if (type != CORE_AIC && type != CORE_AIV) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "slot %zu: moe-v2 core type %u is neither 1 (AIC) nor 2 (AIV)",
			 s->index, type);
		return -1;
	}
	s->capacity = (S - hlen) / 2;
	if (n < 0 || (uint64_t)n > s->capacity || dropped < 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "slot %zu: moe-v2 record count %lld (dropped %lld) does not fit the slot's %llu records", s->index,
			 (long long)n, (long long)dropped, (unsigned long long)s->capacity);
		return -1;
	}
	if (w[2] < 0 || w[2] > 0xFFFF || w[3] < 0 || w[3] > 0xFF) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "slot %zu: moe-v2 block index %lld / sub-block %lld out of range",
			 s->index, (long long)w[2], (long long)w[3]);
		return -1;
	}
	s->kind = type;
	s->grouped = false;
	s->sub = 0;
	s->n = (uint64_t)n;
	s->dropped = (uint64_t)dropped;
	s->stamp = (uint64_t)w[6];
	s->entry = w[7];
	s->rec = w + hlen;
	s->rstride = 2;
	s->cyc = w + hlen + 1;
	s->cstride = 2;
	if (type == CORE_AIC) {
		s->block = (unsigned)w[2];
	} else if (subnum >= 2) {
		s->block = (unsigned)w[2] / subnum;
		s->sub = (unsigned)w[3];
		s->grouped = true;
	} else {
		s->block = (unsigned)w[2];
	}
	collect_slot_name(s);
	return 0;
}

const struct dump_layout dump_layout_moe_v2 = {
	.name = "moe-v2",
	.tag = "v2",
	.claims = v2_claims,
	.slot_words = v2_slot_words,
	.unwritten = v2_unwritten,
	.plausible = NULL,
	.decode = v2_decode,
	.names_cores = true,
	.counts_dropped = true,
	.stamped = true,
};
