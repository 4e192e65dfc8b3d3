/* `autotrace learn`: the operator's rules file written from the points in
 * its sources. The existing pairs are found by planning the sources as they
 * are; every pair the rules do not put back gets the statement that would
 * (plan_learn.c); again, until nothing changes. Each try is the proof
 * itself: a scratch copy of the
 * operator with every point stripped, apply with the rules (computed, not
 * written), and the B points compared one to one with the originals by file,
 * label and the code line each stands before; a statement whose removal puts
 * back as many points, with no more others, is dropped. */
#define _GNU_SOURCE /* memmem(3) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply_run.h"
#include "atomic_write.h"
#include "edit.h"
#include "learn_run.h"
#include "path_glob.h"
#include "path_rel.h"
#include "plan.h"
#include "rule_find.h"
#include "src_file.h"
#include "strbuf.h"
#include "xalloc.h"

static void discard(void *ctx, const struct diag_msg *m)
{
	(void)ctx;
	(void)m;
}

struct stmts {
	char **v;
	size_t n;
};

static bool stmts_add(struct stmts *s, char *stmt)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], stmt) == 0) {
			free(stmt);
			return false;
		}
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] = stmt;
	return true;
}

static char *rules_text(const char *include, const struct stmts *s, const char *head)
{
	struct strbuf b = { 0 };

	strbuf_puts(&b, head);
	strbuf_puts(&b, "rules 1;\ninclude \"");
	strbuf_puts(&b, include);
	strbuf_puts(&b, "\";\ntrace {\n");
	for (size_t i = 0; i < s->n; i++) {
		strbuf_puts(&b, "    ");
		strbuf_puts(&b, s->v[i]);
		strbuf_putc(&b, '\n');
	}
	strbuf_puts(&b, "}\n");
	return strbuf_take(&b);
}

static int write_bytes(const char *path, const char *data, size_t len, struct diag *diag)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fwrite(data, 1, len, f) == len;

	if (f && fclose(f) != 0)
		ok = false;
	if (!ok) {
		diag_plain(diag, DIAG_ERROR, "learn: cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const char *text, struct diag *diag)
{
	return write_bytes(path, text, strlen(text), diag);
}

/* The scratch copy: what apply reads of the operator, every point taken out. */
struct copy_ctx {
	const char *to;          /* the copy's root */
	char *skip;              /* the scratch directory relative to the operator, when inside it, or NULL */
	struct diag *diag;
};

/* One file of the operator (path_visit: the walk every command makes, links
 * out of the tree refused): a C or C++ source or header, stripped of every
 * point, or a CMakeLists.txt (its -D flags choose the #if arms), written at
 * its place in the copy; a file the scan cannot read is left out (the scan
 * says so). */
static int copy_one(void *arg, const char *rel, const char *path)
{
	struct copy_ctx *c = arg;
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	size_t sl = c->skip ? strlen(c->skip) : 0;
	struct src_file *f;
	char *dst, *dir, *text = NULL;
	size_t len;
	unsigned removed = 0;
	int rc = 0;

	if ((c->skip && strncmp(rel, c->skip, sl) == 0 && rel[sl] == '/') ||
	    !(src_file_is_cxx_name(rel) || strcmp(base, "CMakeLists.txt") == 0) || !(f = src_file_load(path)))
		return 0;
	if (src_file_is_cxx_name(rel))
		text = edit_strip(f->data, f->len, true, &len, &removed, NULL, NULL);
	dst = path_join(c->to, rel);
	dir = xstrndup(dst, (size_t)(strrchr(dst, '/') - dst));
	if (path_mkdirs(dir, NULL) != 0) {
		diag_plain(c->diag, DIAG_ERROR, "learn: cannot make %s in the scratch directory: %s", dir, strerror(errno));
		rc = -1;
	} else {
		rc = text ? write_bytes(dst, text, len, c->diag) : write_bytes(dst, f->data, f->len, c->diag);
	}
	free(dir);
	free(dst);
	free(text);
	src_file_free(f);
	return rc;
}

/* The copy of `opdir` at `to`, its points stripped; 0 or -1 after reporting. */
static int copy_stripped(const char *opdir, const char *to, const char *scratch, struct diag *diag)
{
	struct copy_ctx c = { to, NULL, diag };
	char *op = realpath(opdir, NULL), *sc = realpath(scratch, NULL);
	int rc;

	/* (TMPDIR inside the operator: the scratch directory is not copied into itself) */
	if (op && sc && path_within(sc, op))
		c.skip = path_relative(op, sc);
	rc = path_visit(opdir, NULL, 0, copy_one, &c, diag);
	free(c.skip);
	free(op);
	free(sc);
	return rc;
}

/* The B points of a text: "label\tthe code line it stands before" each. */
struct bkey {
	char *key;
	bool used;
};

static bool code_line(const char *l, size_t n)
{
	while (n && (*l == ' ' || *l == '\t'))
		l++, n--;
	return n && !(n >= 2 && l[0] == '/' && l[1] == '/') && !memmem(l, n, "MoeTracing(", 11);
}

/* (`tagged`: only the points apply inserted, which carry its tag: a point
 * the strip left in the copy is not one the rules put back) */
static size_t b_points(const char *rel, const char *data, size_t len, bool tagged, struct bkey **out, size_t n)
{
	const char *p = data, *end = data + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *le = nl ? nl : end;
		const char *tp = memmem(p, (size_t)(le - p), "TRACE_POINT(\"", 13);
		if (tp && memmem(tp, (size_t)(le - tp), "\"B\")", 4) &&
		    (!tagged || memmem(p, (size_t)(le - p), "// autotrace", 12) || memmem(p, (size_t)(le - p), "/*autotrace:*/", 14))) {
			const char *lab = tp + 13, *q = memchr(lab, '"', (size_t)(le - lab));
			const char *c = nl ? nl + 1 : end;
			while (c < end) {
				const char *cn = memchr(c, '\n', (size_t)(end - c)), *ce = cn ? cn : end;
				if (code_line(c, (size_t)(ce - c)))
					break;
				c = cn ? cn + 1 : end;
			}
			if (q) {
				const char *ce;
				size_t cl;
				while (c < end && (*c == ' ' || *c == '\t'))
					c++;
				ce = c < end ? memchr(c, '\n', (size_t)(end - c)) : NULL;
				cl = ce ? (size_t)(ce - c) : (size_t)(end - c);
				*out = xrealloc(*out, (n + 1) * sizeof(**out));
				(*out)[n].key = xasprintf("%s\t%.*s\t%.*s", rel, (int)(q - lab), lab, (int)cl, c);
				(*out)[n++].used = false;
			}
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}

static void free_keys(struct bkey *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(k[i].key);
	free(k);
}

/* The key of hand pair h of plan pl (planned over the sources as they are):
 * its file, label and the code line its B stands before. */
static char *hand_key(const struct plan *pl, const struct plan_hand *h)
{
	const struct src_file *f = pl->units[h->unit].file;
	struct bkey *k = NULL;
	size_t n, ls = h->b;
	char *key;

	while (ls > 0 && f->data[ls - 1] != '\n')
		ls--;
	n = b_points(pl->units[h->unit].path, f->data + ls, f->len - ls, false, &k, 0);
	key = n ? xstrdup(k[0].key) : xstrdup("");
	free_keys(k, n);
	return key;
}

/* Apply (computed, not written) with `rules` on the stripped copy: how many
 * of the hand keys come back one to one (marking them in `back`), and how
 * many more B points it puts. The rules are read as the operator's own (its
 * directory is where they may include from), then given to apply on the
 * copy. -2 when they cannot be read, -1 when apply fails. */
static int try_rules(const char *opdir, const char *copy, const char *rules, const char *op, char **keys, bool *back,
		     size_t nkeys, unsigned *more, struct diag *quiet, struct diag *diag)
{
	struct rule_cache cache = { NULL, NULL };
	struct apply_opts ao = { copy, rules, op, &cache, APPLY_SHOW };
	struct apply_result ar;
	struct bkey *got = NULL;
	size_t ngot = 0, cl = strlen(copy);
	int same = 0;

	if (!(cache.policy = rule_find_and_load(rules, opdir, diag)))
		return -2;
	cache.path = xstrdup(rules);
	memset(&ar, 0, sizeof(ar));
	if (apply_run(&ao, &ar, quiet) != 0) {
		apply_result_release(&ar);
		rule_cache_release(&cache);
		return -1;
	}
	for (size_t i = 0; i < ar.nfiles; i++) {
		const char *rel = ar.files[i].fs_path;
		if (strncmp(rel, copy, cl) == 0 && rel[cl] == '/')
			rel += cl + 1;
		ngot = b_points(rel, ar.files[i].text, ar.files[i].len, true, &got, ngot);
	}
	for (size_t i = 0; i < nkeys; i++) {
		back[i] = false;
		for (size_t j = 0; j < ngot && !back[i]; j++)
			if (!got[j].used && strcmp(keys[i], got[j].key) == 0)
				got[j].used = back[i] = true;
		same += back[i];
	}
	*more = (unsigned)ngot - (unsigned)same;
	free_keys(got, ngot);
	apply_result_release(&ar);
	rule_cache_release(&cache);
	return same;
}

/* The rules with statements s written to `rules`, tried on the copy. */
static int try_stmts(const struct learn_opts *o, const char *rules, const char *include, const struct stmts *s,
		     const char *copy, char **keys, bool *back, size_t nkeys, unsigned *more, struct diag *quiet,
		     struct diag *diag)
{
	char *text = rules_text(include, s, "");
	int rc = write_file(rules, text, diag);

	free(text);
	return rc != 0 ? -2 : try_rules(o->opdir, copy, rules, o->op, keys, back, nkeys, more, quiet, diag);
}

/* Fewer statements: each whose removal puts back as many points, with no
 * more others, is dropped. Returns the points put back. */
static int minimize(const struct learn_opts *o, const char *rules, const char *include, struct stmts *sp,
		    const char *copy, char **keys, bool *back, size_t nkeys, int same, unsigned *more,
		    struct diag *quiet, struct diag *diag)
{
	struct stmts s = *sp;

	for (size_t i = s.n; i-- > 0;) {
		char *held = s.v[i];
		unsigned m;
		int n;
		memmove(&s.v[i], &s.v[i + 1], (s.n - i - 1) * sizeof(*s.v));
		s.n--;
		n = try_stmts(o, rules, include, &s, copy, keys, back, nkeys, &m, quiet, diag);
		if (n >= same && (n > same || m <= *more)) {
			free(held);
			same = n;
			*more = m;
			continue;
		}
		memmove(&s.v[i + 1], &s.v[i], (s.n - i) * sizeof(*s.v));
		s.v[i] = held;
		s.n++;
	}
	*sp = s;
	return same;
}

int learn_run(const struct learn_opts *o, struct learn_result *r, struct diag *diag)
{
	const char *tmpdir = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
	char *scratch = xasprintf("%s/autotrace-learn-XXXXXX", tmpdir), *rules = NULL, *include, *copy = NULL;
	struct stmts s = { NULL, 0 };
	struct plan *pl = NULL;
	struct rule_policy *p = NULL;
	struct diag quiet;
	char **keys = NULL;
	bool *back = NULL;
	size_t nkeys = 0;
	unsigned more = 0;
	int rc = -1, same;

	memset(r, 0, sizeof(*r));
	include = o->base ? realpath(o->base, NULL) : xstrdup("moe.rules");
	if (!include || strchr(include, '"') || strchr(include, '\n') || strchr(include, '\\')) {
		diag_plain(diag, DIAG_ERROR, "learn: the base rules %s cannot be included (%s)", o->base,
			   include ? "a quote or a newline in its path" : strerror(errno));
		free(include);
		free(scratch);
		return -1;
	}
	if (!mkdtemp(scratch)) {
		diag_plain(diag, DIAG_ERROR, "learn: cannot make a scratch directory in %s: %s", tmpdir, strerror(errno));
		free(include);
		free(scratch);
		return -1;
	}
	rules = path_join(scratch, "learned.rules");
	copy = path_join(scratch, "op");
	diag_init(&quiet, diag->out, false);
	quiet.sink = discard;
	/* the pairs, where they are: planned over the sources as they are */
	{
		char *text = rules_text(include, &s, "");
		int w = write_file(rules, text, diag);
		free(text);
		if (w != 0 || !(p = rule_find_and_load(rules, o->opdir, diag)))
			goto out;
	}
	pl = plan_build(p, o->opdir, o->entry, diag);
	if (!pl)
		goto out;
	nkeys = pl->nhand;
	keys = xcalloc(nkeys + 1, sizeof(*keys));
	back = xcalloc(nkeys + 1, sizeof(*back));
	for (size_t i = 0; i < nkeys; i++)
		keys[i] = hand_key(pl, &pl->hand[i]);
	if (copy_stripped(o->opdir, copy, scratch, diag) != 0)
		goto out;
	/* a statement for each pair the rules do not put back, until none helps */
	same = try_stmts(o, rules, include, &s, copy, keys, back, nkeys, &more, &quiet, diag);
	for (int round = 0; round < 6 && same >= 0; round++) {
		bool added = false;
		for (size_t i = 0; i < nkeys; i++) {
			char *why = NULL, *stmt;
			if (back[i])
				continue;
			stmt = plan_learn_statement(pl, &pl->hand[i], &why, &quiet);
			if (stmt)
				added |= stmts_add(&s, stmt);
			free(why);
		}
		if (!added)
			break;
		same = try_stmts(o, rules, include, &s, copy, keys, back, nkeys, &more, &quiet, diag);
	}
	if (same == -2)
		goto out;
	if (same < 0) {
		diag_plain(diag, DIAG_ERROR, "learn: apply with the learned rules fails on the sources without points");
		goto out;
	}
	same = minimize(o, rules, include, &s, copy, keys, back, nkeys, same, &more, &quiet, diag);
	same = try_stmts(o, rules, include, &s, copy, keys, back, nkeys, &more, &quiet, diag);
	/* what could not be said */
	for (size_t i = 0; i < nkeys; i++) {
		const struct plan_hand *h = &pl->hand[i];
		char *why = NULL, *stmt;
		if (back[i])
			continue;
		stmt = plan_learn_statement(pl, h, &why, &quiet);
		diag_at(diag, DIAG_WARNING, src_loc_make(pl->units[h->unit].file, h->b, h->b),
			"learn: the pair '%s' is not put back by the learned rules: %s", h->label,
			why ? why : stmt ? "the statement for it does not put it here (another rule wins)" : "no statement");
		free(stmt);
		free(why);
	}
	r->pairs = r->hand = (unsigned)nkeys;
	r->same = same < 0 ? 0 : (unsigned)same;
	r->more = more;
	r->statements = (unsigned)s.n;
	{
		char *head = xasprintf("# Learned by autotrace learn from the points in %s: with %u statement%s after\n"
				       "# the base rules, apply on the sources without points puts %u of their %u B\n"
				       "# points back one to one (same file, label and line), and %u more.\n",
				       o->opdir, r->statements, r->statements == 1 ? "" : "s", r->same, r->hand, r->more);
		/* BASE as the written file reaches it: relative under its directory */
		char *dir = o->base && o->out_dir ? realpath(o->out_dir, NULL) : NULL;
		size_t dl = dir ? strlen(dir) : 0;
		const char *inc = dir && strncmp(include, dir, dl) == 0 && include[dl] == '/' ? include + dl + 1 : include;
		r->text = rules_text(inc, &s, head);
		free(dir);
		free(head);
	}
	rc = 0;
out:
	plan_free(pl);
	rule_policy_free(p);
	for (size_t i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	free(back);
	for (size_t i = 0; i < s.n; i++)
		free(s.v[i]);
	free(s.v);
	path_remove_tree(scratch);
	free(scratch);
	free(copy);
	free(rules);
	free(include);
	return rc;
}
