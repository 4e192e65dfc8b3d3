/* Fuzz target for the .npy and raw .bin readers, with slot decoding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect_slot.h"
#include "fuzz_common.h"
#include "dump.h"
#include "rule_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


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
		fuzz_decode_slots(d, policy, &diag);
	dump_free(d);
	d = calloc(1, sizeof(*d));
	d->path = strdup("fuzz.bin");
	if (dump_bin_read_mem("fuzz.bin", data, size, d, &diag) == 0)
		fuzz_decode_slots(d, policy, &diag);
	dump_free(d);
	return 0;
}
