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
 * The scanner here is not the C++ scanner: it only tells code from comments,
 * string and character literals (raw strings included) and # directive
 * lines, jumping over everything else, so that preprocessing runs at disk
 * speed. Comments and strings are never rewritten; TRACE_BUILD_STAMP is not
 * rewritten on directive lines (the runtime's #ifndef/#define of it).
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

/* One TRACE_POINT( found in code. */
struct pp_site {
	uint32_t start, end;   /* TRACE_POINT to its ')' (to the name when malformed) */
	uint32_t line, col;    /* 1-based; the column counts bytes */
	char *label;           /* unescaped; NULL when the arguments are not two string literals */
	size_t label_len;      /* its length: a NUL inside shows as label_len > strlen(label) */
	uint32_t label_start, label_end; /* the label literal, for messages */
	char event;            /* 'B' or 'E'; 0 when the event literal is something else */
	uint32_t event_start, event_end; /* the event literal, for messages */
	bool directive;        /* on a # line (only a literal call there is a point) */
};

/* A trace of an earlier preprocess run in code: MoeTracing(<number>...), a
 * point id where a TRACE_POINT was, or a build stamp literal it wrote. */
struct pp_done {
	uint32_t start, end;   /* the number, or the stamp literal and its tag */
	uint32_t line, col;
	bool stamp;
};

/* What pp_scan finds in one buffer; the caller releases it with pp_scan_release. */
struct pp_scan {
	struct pp_site *sites;
	size_t nsites, cap_sites;
	uint32_t *stamps;      /* offsets of TRACE_BUILD_STAMP in code */
	size_t nstamps, cap_stamps;
	struct pp_done *done;  /* signs that the file was preprocessed already */
	size_t ndone, cap_done;
};

/* Scans `len` bytes of `data` (NUL-terminated at data[len]) into `out`,
 * whose previous contents are replaced. */
void pp_scan_buffer(const char *data, size_t len, struct pp_scan *out);
void pp_scan_release(struct pp_scan *s);

/* The identifier rewritten into the stamp literal, and the tag that follows
 * the literal (0x5f3c9a1200000007ULL followed by the tag), by which a later run
 * knows the tree is preprocessed already. */
#define PP_STAMP_NAME "TRACE_BUILD_STAMP"
#define PP_STAMP_TAG "/* TRACE_BUILD_STAMP */"

struct pp_options {
	const char *tree;      /* SRC_TREE */
	const char *map;       /* NULL: OUT/point_map.json with --out, else TREE/point_map.json */
	const char *out;       /* --out DIR, or NULL */
	bool in_place;
	bool dry_run;          /* report only, write nothing */
	bool force;            /* write even when the pairing check fails */
	bool quiet;            /* no per-file counts */
};

/* Runs preprocess; counts go to `out`, diagnostics to `diag`. Returns an
 * exit status (exit_status.h): nothing is written unless it is EXIT_OK. */
int preprocess_run(const struct pp_options *o, FILE *out, struct diag *diag);

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
