/* `autotrace preprocess`: the build-time step of gate G1. Every
 * TRACE_POINT("label", "B"|"E") in the code of a source tree becomes its
 * integer id, the identifier TRACE_BUILD_STAMP becomes the build stamp, and
 * point_map.json says what each id means.
 *
 * Ids are deterministic: files in bytewise order of their path relative to
 * the tree root, then points in file order, numbered from 1 (0xFFFFFFFF, the
 * id of an unpreprocessed build, is never given). `event_id` numbers the
 * distinct labels in order of first appearance, from 1. The build stamp is a
 * 64-bit hash of every point's file, line, column, label and event, never 0.
 *
 * Comments and strings are never rewritten; TRACE_BUILD_STAMP is not
 * rewritten on directive lines (the runtime's #ifndef/#define of it). The
 * scanner that finds the points is preprocess_scan.h.
 *
 * A tree preprocessed once is refused (its numbers would collide with the
 * ids a second run gives, and a second stamp would pass collect's check on
 * dumps of the first build): the scanner reports every MoeTracing(<number>
 * and every stamp literal a run wrote (the literal followed by its tag). */
#ifndef AUTOTRACE_PREPROCESS_H
#define AUTOTRACE_PREPROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "preprocess_scan.h"

struct pp_options {
	const char *tree;      /* SRC_TREE */
	const char *map;       /* NULL: OUT/point_map.json with --out, else TREE/point_map.json */
	const char *out;       /* --out DIR, or NULL */
	bool in_place;
	bool dry_run;          /* report only, write nothing */
	bool force;            /* write even when the pairing check fails */
	bool quiet;            /* no per-file counts */
};

/* What a run found. */
struct pp_result {
	bool findings;         /* malformed points or pairing errors (not bad input) */
	size_t npoints, nlabels;
	uint64_t stamp;
};

/* Runs preprocess; counts go to `out`, diagnostics to `diag`. Returns 0, or
 * -1 with the reason reported (res->findings when it was the points):
 * nothing is written unless it is 0. */
int preprocess_run(const struct pp_options *o, FILE *out, struct pp_result *res, struct diag *diag);

/* The build stamp preprocess gives the sources below `root` (the same files,
 * in the same order), without checking or writing anything. Each file is
 * named `prefix`/its path below `root` -- its path in a copy that holds
 * `root` as `prefix` -- or just its path below `root` when `prefix` is NULL.
 * Returns 0, or -1 after reporting a tree or file that cannot be read. */
int pp_tree_stamp(const char *root, const char *prefix, uint64_t *stamp, struct diag *diag);

/* The stamp of a list of points, for the tests: feed every point in id order
 * to pp_stamp_add, then read pp_stamp_value. */
struct pp_stamp {
	uint64_t h;
};
void pp_stamp_init(struct pp_stamp *st);
void pp_stamp_add(struct pp_stamp *st, const char *file, uint32_t line, uint32_t col, const char *label, char event);
uint64_t pp_stamp_value(const struct pp_stamp *st);

#endif
