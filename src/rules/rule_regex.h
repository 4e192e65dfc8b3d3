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
};

/* Compiles `/pattern/flags` whose literal spans `loc` (pattern starts at
 * loc.start + 1). Flags: i (caseless), x (extended), s (dotall), m (multiline).
 * A bad flag or pattern is an error at its exact offset; returns NULL then. */
struct rule_regex *rule_regex_compile(const char *pattern, const char *flags, struct src_loc loc,
				      struct diag *diag);

/* True when the regex matches somewhere in subject[0..len). */
bool rule_regex_match(const struct rule_regex *re, const char *subject, size_t len);

/* "/pattern/flags", newly allocated. */
char *rule_regex_text(const struct rule_regex *re);

void rule_regex_free(struct rule_regex *re);

#endif
