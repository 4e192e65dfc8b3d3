/* Fuzz target for the .npy and raw .bin readers, with slot decoding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect_slot.h"
#include "dump.h"
#include "rule_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void decode(struct dump *d, struct rule_policy *p, struct diag *diag)
{
	struct collect_slots s;
	if (collect_slots_decode(d, p, &s, diag) == 0) {
		volatile int64_t sum = 0;
		for (size_t i = 0; i < s.n; i++)
			for (uint64_t k = 0; k < s.v[i].n; k++)
				sum += collect_slot_word(&s.v[i], k) ^ collect_slot_cycle(&s.v[i], k);
		collect_slots_release(&s);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static struct rule_policy *policy;
	struct diag diag;
	struct dump *d;

	if (!null) {
		null = fopen("/dev/null", "w");
		policy = rule_policy_new();
		policy->slot_words = 64;
	}
	diag_init(&diag, null, false);
	d = calloc(1, sizeof(*d));
	d->path = strdup("fuzz.npy");
	if (dump_npy_read_mem("fuzz.npy", data, size, d, &diag) == 0)
		decode(d, policy, &diag);
	dump_free(d);
	d = calloc(1, sizeof(*d));
	d->path = strdup("fuzz.bin");
	if (dump_bin_read_mem("fuzz.bin", data, size, d, &diag) == 0)
		decode(d, policy, &diag);
	dump_free(d);
	return 0;
}
