/* The accounting summary of a collect run, printed on stderr unless -q. */
#include "collect_counts.h"

void collect_counts_print(FILE *out, const struct collect_counts *c)
{
	fprintf(out,
		"collect: files %llu, slots %llu (%llu never written), tracks %llu\n"
		"collect: records %llu: mapped %llu, skipped_no_mapping %llu, unpreprocessed %llu\n"
		"collect: slices %llu (written %llu), unmatched_b %llu, unmatched_e %llu, paired_by_label %llu, "
		"interleaved %llu\n"
		"collect: dropped_on_device %llu, full_v1_slots %llu, bad_cycles %llu\n"
		"collect: ids in dumps %llu, in map %llu, in both %llu\n",
		(unsigned long long)c->files, (unsigned long long)c->slots, (unsigned long long)c->slots_empty,
		(unsigned long long)c->tracks, (unsigned long long)c->records, (unsigned long long)c->mapped,
		(unsigned long long)c->skipped_no_mapping, (unsigned long long)c->unpreprocessed,
		(unsigned long long)c->slices, (unsigned long long)c->written, (unsigned long long)c->unmatched_b,
		(unsigned long long)c->unmatched_e, (unsigned long long)c->paired_by_label,
		(unsigned long long)c->interleaved, (unsigned long long)c->dropped_on_device, (unsigned long long)c->full_uncounted,
		(unsigned long long)c->bad_cycles, (unsigned long long)c->ids_in_dumps, (unsigned long long)c->ids_in_map,
		(unsigned long long)c->ids_in_both);
}
