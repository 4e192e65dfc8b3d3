/* The scanner of `autotrace preprocess`: the TRACE_POINT("label", "B"|"E")
 * sites, TRACE_BUILD_STAMP identifiers and traces of an earlier run in one
 * buffer. It is not the C++ scanner (cxx_token.h): it only tells code from
 * comments, string and character literals (raw strings included) and #
 * directive lines, jumping over everything else, so that preprocessing runs
 * at disk speed. Both scanners must find the same trace points; they read
 * label literals through one unescaper (string_literal.h). */
#ifndef AUTOTRACE_PREPROCESS_SCAN_H
#define AUTOTRACE_PREPROCESS_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
