/* Fuzz target for the .pt reader: a zip archive (dump_pt.c) or, for inputs
 * that are not zip archives, a bare pickle stream (dump_pickle.c), so the
 * pickle machine is reached without the zip CRC rejecting every mutation.
 * Readable dumps are also decoded into slots (collect_slot.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect_slot.h"
#include "fuzz_common.h"
#include "dump.h"
#include "dump_pickle.h"
#include "rule_policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static struct rule_policy *policy;
	struct diag diag;

	if (!null) {
		null = fopen("/dev/null", "w");
		policy = rule_policy_new();
		policy->slot_words = 64;
	}
	diag_init(&diag, null, false);
	if (size >= 4 && memcmp(data, "PK", 2) == 0) {
		struct dump *d = calloc(1, sizeof(*d));
		d->path = strdup("fuzz.pt");
		if (dump_pt_read_mem("fuzz.pt", data, size, d, &diag) == 0) {
			fuzz_decode_slots(d, policy, &diag);
		}
		dump_free(d);
	} else {
		char err[256];
		pickle_free(pickle_run(data, size, err, sizeof(err)));
	}
	return 0;
}
