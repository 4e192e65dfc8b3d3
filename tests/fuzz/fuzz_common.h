/* Shared by the dump fuzz targets: decode a dump into slots and read every
 * word, so that the decoder's bounds are exercised, not just its headers. */
#ifndef AUTOTRACE_FUZZ_COMMON_H
#define AUTOTRACE_FUZZ_COMMON_H

#include <stdint.h>

#include "collect_slot.h"
#include "dump.h"

static inline void fuzz_decode_slots(struct dump *d, struct rule_policy *policy, struct diag *diag)
{
	struct collect_slots s;
	volatile uint64_t sum = 0;

	if (collect_slots_decode(d, policy, &s, diag) != 0)
		return;
	for (size_t i = 0; i < s.n; i++)
		for (uint64_t k = 0; k < s.v[i].n; k++)
			sum += (uint64_t)collect_slot_word(&s.v[i], k) ^ (uint64_t)collect_slot_cycle(&s.v[i], k);
	collect_slots_release(&s);
}

#endif
