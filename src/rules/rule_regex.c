/* PCRE2 compilation of rules regex literals, with errors at the exact offset. */
#include "rule_regex.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* A regex whose match gave up, with what it gave up on; the list of them
 * waiting to be reported (the planner is one thread). */
struct rule_regex_limit {
	const struct rule_regex *re;
	char subject[64];
	struct rule_regex_limit *next;
};
static struct rule_regex_limit *limited;

/* One match context for every match: the step and depth limits. */
static pcre2_match_context *limits(void)
{
	static pcre2_match_context *ctx;

	if (!ctx) {
		ctx = pcre2_match_context_create(NULL);
		if (!ctx)
			xalloc_die();
		pcre2_set_match_limit(ctx, RULE_REGEX_MATCH_LIMIT);
		pcre2_set_depth_limit(ctx, RULE_REGEX_MATCH_LIMIT / 20);
	}
	return ctx;
}

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
	int rc;

	if (re->limit)
		return false; /* gave up once: reported, not tried again */
	/* (pcre2_jit_match skips pcre2_match's checks: the planner matches tens
	 * of thousands of names per operator) */
	if (re->jit)
		rc = pcre2_jit_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->md, limits());
	else
		rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, re->md, limits());
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT) {
		struct rule_regex_limit *l = xcalloc(1, sizeof(*l));
		size_t n = len < sizeof(l->subject) - 1 ? len : sizeof(l->subject) - 1;
		for (size_t i = 0; i < n; i++)
			l->subject[i] = (unsigned char)subject[i] < 0x20 ? ' ' : subject[i];
		l->re = re;
		l->next = limited;
		limited = l;
		((struct rule_regex *)re)->limit = l;
	}
	return rc >= 0;
}

unsigned rule_regex_limits_report(struct diag *diag)
{
	unsigned n = 0;

	while (limited) {
		struct rule_regex_limit *l = limited;
		limited = l->next;
		diag_at(diag, DIAG_ERROR, l->re->loc,
			"this regular expression gave up after %u steps on '%s%s': it backtracks without bound (make "
			"the repetition possessive, a++, or atomic, (?>...)); what it would decide is unknown",
			RULE_REGEX_MATCH_LIMIT, l->subject, strlen(l->subject) == sizeof(l->subject) - 1 ? "..." : "");
		((struct rule_regex *)l->re)->limit = NULL;
		free(l);
		n++;
	}
	return n;
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
	for (struct rule_regex_limit **l = &limited; *l; l = &(*l)->next)
		if ((*l)->re == re) {
			struct rule_regex_limit *gone = *l;
			*l = gone->next;
			free(gone);
			break;
		}
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	free(re->pattern);
	free(re->flags);
	free(re);
}
