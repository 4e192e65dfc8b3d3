/* PCRE2 compilation of rules regex literals, with errors at the exact offset. */
#include "rule_regex.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const struct {
	char flag;
	uint32_t option;
} regex_flags[] = {
	{ 'i', PCRE2_CASELESS },
	{ 'x', PCRE2_EXTENDED },
	{ 's', PCRE2_DOTALL },
	{ 'm', PCRE2_MULTILINE },
};

struct rule_regex *rule_regex_compile(const char *pattern, const char *flags, struct src_loc loc,
				      struct diag *diag)
{
	struct rule_regex *re;
	uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	size_t plen = strlen(pattern);
	int err;
	PCRE2_SIZE erroff;
	pcre2_code *code;

	for (size_t i = 0; flags[i]; i++) {
		size_t k;
		for (k = 0; k < sizeof(regex_flags) / sizeof(regex_flags[0]); k++)
			if (regex_flags[k].flag == flags[i])
				break;
		if (k == sizeof(regex_flags) / sizeof(regex_flags[0])) {
			uint32_t at = loc.start + 2 + (uint32_t)plen + (uint32_t)i;
			diag_at(diag, DIAG_ERROR, src_loc_make(loc.file, at, at + 1),
				"unknown regular expression flag '%c' (known flags: i, x, s, m)", flags[i]);
			return NULL;
		}
		options |= regex_flags[k].option;
	}
	code = pcre2_compile((PCRE2_SPTR)pattern, plen, options, &err, &erroff, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		uint32_t at = loc.start + 1 + (uint32_t)erroff;
		pcre2_get_error_message(err, msg, sizeof(msg));
		diag_at(diag, DIAG_ERROR, src_loc_make(loc.file, at, at + 1),
			"bad regular expression: %s", (const char *)msg);
		return NULL;
	}
	/* JIT is best effort (matching falls back to the interpreter). Not under
	 * valgrind (tests/valgrind-wrap.sh sets AUTOTRACE_NO_JIT): JIT code reads
	 * past the subject in ways memcheck reports as uninitialised values. */
	re = xcalloc(1, sizeof(*re));
	re->jit = !getenv("AUTOTRACE_NO_JIT") && pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
	re->pattern = xstrdup(pattern);
	re->flags = xstrdup(flags);
	re->code = code;
	re->md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!re->md)
		xalloc_die();
	re->loc = loc;
	return re;
}

bool rule_regex_match(const struct rule_regex *re, const char *subject, size_t len)
{
	/* (pcre2_jit_match skips pcre2_match's checks: the planner matches tens
	 * of thousands of names per operator) */
	if (re->jit)
		return pcre2_jit_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->md, NULL) >= 0;
	return pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->md, NULL) >= 0;
}

char *rule_regex_text(const struct rule_regex *re)
{
	size_t n = strlen(re->pattern) + strlen(re->flags) + 3;
	char *s = xmalloc(n);
	snprintf(s, n, "/%s/%s", re->pattern, re->flags);
	return s;
}

void rule_regex_free(struct rule_regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re->pattern);
	free(re->flags);
	free(re);
}
