/* Regex literals of the rules language, compiled with PCRE2 at load time. */
#ifndef AUTOTRACE_RULE_REGEX_H
#define AUTOTRACE_RULE_REGEX_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdbool.h>

#include "diag.h"

struct rule_regex {
	char *pattern;        /* as written between the slashes */
	char *flags;          /* as written after the closing slash */
	pcre2_code *code;
	pcre2_match_data *md; /* reused by rule_regex_match */
	bool jit;             /* compiled to machine code: matched by pcre2_jit_match */
	struct src_loc loc;   /* the whole literal */
	struct rule_regex_limit *limit; /* set when a match gave up (rule_regex_limits_report) */
};

/* The steps one match may take (PCRE2's match limit; its default is ten
 * million): a rule that backtracks without bound, /(a+)+$/, gives up on a
 * subject after this many, and is not tried again until reported. */
#define RULE_REGEX_MATCH_LIMIT 200000

/* Compiles `/pattern/flags` whose literal spans `loc` (pattern starts at
 * loc.start + 1). Flags: i (caseless), x (extended), s (dotall), m (multiline).
 * A bad flag or pattern is an error at its exact offset; returns NULL then. */
struct rule_regex *rule_regex_compile(const char *pattern, const char *flags, struct src_loc loc,
				      struct diag *diag);

/* True when the regex matches somewhere in subject[0..len). A match that
 * gives up (RULE_REGEX_MATCH_LIMIT) is false, and recorded to be reported:
 * it is not a decision. */
bool rule_regex_match(const struct rule_regex *re, const char *subject, size_t len);

/* Reports, at its literal, every regex whose match gave up since the last
 * call (one error each, with the subject it gave up on) and forgets them.
 * Returns their number: a command that decided with them must fail. */
unsigned rule_regex_limits_report(struct diag *diag);

/* "/pattern/flags", newly allocated. */
char *rule_regex_text(const struct rule_regex *re);

void rule_regex_free(struct rule_regex *re);

#endif
