/* The slot layouts the device runtime writes a core's records in
 * (device/LAYOUT.md), one file each behind a small ops table, as the trace
 * outputs are behind trace_ops: how a slot is recognised, whether it was
 * written, its header and where its records and cycles are. collect_slot.c
 * cuts the dump's tensors into slots and hands each to its layout; the
 * rules' `layout` statement, collect, inspect and the documentation take the
 * names and traits from the table.
 *
 * Adding a layout: a file src/collect/dump_layout_NAME.c defining its ops, a row in
 * DUMP_LAYOUT_LIST, its section in device/LAYOUT.md and the name in
 * autotrace-rules(5) (tests/unit/check_dump.c checks both) and in the
 * `layout` synopsis of rule_statements.def (a string literal the rules'
 * error messages quote; check_rules checks it), and tests: a decoding case
 * in check_dump.c, a dump under tests/collect/. */
#ifndef AUTOTRACE_DUMP_LAYOUT_H
#define AUTOTRACE_DUMP_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

struct collect_slot;

struct dump_layout {
	const char *name;            /* "moe-v2": the rules' `layout`, inspect, messages */
	const char *tag;             /* "v2": inspect's per-slot column */
	/* Does the slot of `S` words at `w` carry this layout's mark (a magic in
	 * word 0)? NULL for the one layout without a mark: it reads every slot
	 * that no other layout claims. */
	bool (*claims)(const int64_t *w, size_t S);
	/* The slot size the header at `w` gives, for a flat (1-D) tensor of
	 * `total` words whose rows cannot say it; 0 when it gives none. NULL:
	 * the layout never says its size. */
	size_t (*slot_words)(const int64_t *w, size_t total);
	/* Never written: left as the host allocated it (zeros). */
	bool (*unwritten)(const int64_t *w, size_t S);
	/* Does a written slot of S words look like this layout (no report)?
	 * For a layout that does not say its size: finding the slot size a flat
	 * dump reads cleanly with, when the rules' `slot` does not. NULL for a
	 * layout that says its size. */
	bool (*plausible)(const int64_t *w, size_t S);
	/* Reads the header of a written slot into `s` (whose index, tensor, S
	 * and position name the caller set) and points s->rec / s->cyc at its
	 * records. A layout that names its cores sets kind, block, sub and
	 * grouped, and renames the slot (collect_slot_name). 0, or -1 after
	 * reporting `path: error: slot N: ...`; no record is read past what the
	 * header's counts, checked against S, allow. */
	int (*decode)(const char *path, struct collect_slot *s, const int64_t *w, size_t S, struct diag *diag);
	bool names_cores;            /* the slot says which core wrote it; else named by position */
	bool counts_dropped;         /* it counts the records the device refused when full;
	                                else a full slot may have lost records, uncounted */
	bool stamped;                /* it carries the build stamp (0: not preprocessed) */
};

/* The table, in documentation order: X(identifier of the ops in their file). */
#define DUMP_LAYOUT_LIST(X) \
	X(dump_layout_moe_v1) \
	X(dump_layout_moe_v2)

#define DUMP_LAYOUT_DECL_(ops) extern const struct dump_layout ops;
DUMP_LAYOUT_LIST(DUMP_LAYOUT_DECL_)
#undef DUMP_LAYOUT_DECL_

enum {
#define DUMP_LAYOUT_COUNT_(ops) +1
	DUMP_LAYOUT_COUNT = 0 DUMP_LAYOUT_LIST(DUMP_LAYOUT_COUNT_)
#undef DUMP_LAYOUT_COUNT_
};

/* The i-th layout of the table (i < DUMP_LAYOUT_COUNT), and the position of
 * `l` in it. */
const struct dump_layout *dump_layout_at(size_t i);
size_t dump_layout_index(const struct dump_layout *l);

/* The layout named `name`, or NULL. */
const struct dump_layout *dump_layout_find(const char *name);

/* The layout that reads the slot at `w`: `forced` (the rules' `layout`)
 * when not NULL, else the first whose mark it carries, else the one without
 * a mark. */
const struct dump_layout *dump_layout_recognise(const struct dump_layout *forced, const int64_t *w, size_t S);

/* The layout without a mark (the one that reads what no other claims). */
const struct dump_layout *dump_layout_unmarked(void);

/* The names of the layouts for which `has` holds (every layout when NULL),
 * joined by `sep`, in `buf` of `cap` bytes; returns buf. */
const char *dump_layout_names(char *buf, size_t cap, const char *sep, bool (*has)(const struct dump_layout *l));

#endif
