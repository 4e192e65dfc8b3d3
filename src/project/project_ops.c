/* The operators of an operator directory and the choice of one (project_ops.h). */
#include "project_ops.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "project_model.h"
#include "project_tokens.h"
#include "suggest.h"
#include "xalloc.h"

int project_layer_load(const char *opdir, const struct rule_strlist *globs, struct src_file ***files, size_t *n,
		       struct diag *diag)
{
	char **found = NULL;
	size_t nf = 0;

	*files = NULL;
	*n = 0;
	if (globs->n == 0)
		return 0;
	if (path_glob(opdir, globs->v, globs->n, &found, &nf, diag) != 0)
		return -1;
	*files = nf ? xmalloc(nf * sizeof(**files)) : NULL;
	for (size_t i = 0; i < nf; i++) {
		char *p = path_join(opdir, found[i]);
		struct src_file *f = src_file_load(p);
		if (!f)
			diag_pos(diag, DIAG_ERROR, p, 0, 0, "cannot read: %s", strerror(errno));
		else
			(*files)[(*n)++] = f;
		free(p);
	}
	path_glob_free(found, nf);
	return 0;
}

int project_hosts_load(const char *opdir, const struct rule_policy *p, struct project_host **hosts, size_t *n,
		       struct diag *diag)
{
	struct src_file **files;
	size_t nf;

	*hosts = NULL;
	*n = 0;
	if (project_layer_load(opdir, &p->host, &files, &nf, diag) != 0)
		return -1;
	*hosts = nf ? xcalloc(nf, sizeof(**hosts)) : NULL;
	for (size_t i = 0; i < nf; i++) {
		(*hosts)[i].f = files[i];
		project_opdef(files[i]->data, files[i]->len, &(*hosts)[i].od);
	}
	*n = nf;
	free(files);
	return 0;
}

void project_hosts_free(struct project_host *hosts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		opdef_file_release(&hosts[i].od);
		src_file_free(hosts[i].f);
	}
	free(hosts);
}

/* One operator of the directory: its first OpDef with inputs or outputs
 * (else its OP_ADD), where the list shows it. */
struct op_item {
	const struct opdef_op *op;
	const struct src_file *f;
	long host, index;
	char *snake;
};

static size_t list_ops(const struct project_host *hosts, size_t nhosts, struct op_item **out)
{
	struct op_item *v = NULL;
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t h = 0; h < nhosts; h++)
			for (size_t o = 0; o < hosts[h].od.nops; o++) {
				const struct opdef_op *op = &hosts[h].od.ops[o];
				bool seen = false;
				/* pass 0: the definitions; pass 1: OP_ADDs of classes defined nowhere here */
				if (!op->name[0] || (pass == 0 ? op->nparams == 0 : !op->registered))
					continue;
				for (size_t i = 0; i < n && !seen; i++)
					seen = strcmp(v[i].op->name, op->name) == 0;
				if (seen)
					continue;
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n].op = op;
				v[n].f = hosts[h].f;
				v[n].host = (long)h;
				v[n].index = (long)o;
				v[n].snake = project_snake(op->name);
				n++;
			}
	*out = v;
	return n;
}

static void items_free(struct op_item *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].snake);
	free(v);
}

/* NAME names the operator: its class name, its snake_case, or either with
 * other case and underscores ("moe_distribute_dispatch_gmm" and
 * "MoeDistributeDispatchGmm" both name class MoeDistributeDispatchGmm). */
static bool names_op(const struct op_item *it, const char *name)
{
	char *a, *b;
	bool same;

	if (strcmp(it->op->name, name) == 0 || strcmp(it->snake, name) == 0)
		return true;
	a = tv_name_key(it->op->name);
	b = tv_name_key(name);
	same = strcmp(a, b) == 0;
	free(a);
	free(b);
	return same;
}

static long find_op(const struct op_item *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names_op(&v[i], name))
			return (long)i;
	return -1;
}

/* One note per operator, at its class name (else its OP_ADD). */
static void list_notes(const struct op_item *v, size_t n, struct diag *diag)
{
	for (size_t i = 0; i < n; i++) {
		struct opdef_range r = v[i].op->class_name.end > v[i].op->class_name.start ? v[i].op->class_name
											  : v[i].op->op_add;
		diag_at(diag, DIAG_NOTE, src_loc_make(v[i].f, r.start, r.end), "operator %s (--op %s or --op %s)",
			v[i].op->name, v[i].op->name, v[i].snake);
	}
}

/* " (did you mean 'X'?)" for a name that matches none, or "". */
static char *did_you_mean(const struct op_item *v, size_t n, const char *name)
{
	const char **cands = xcalloc(2 * n + 1, sizeof(*cands));
	const char *best;
	char *s;

	for (size_t i = 0; i < n; i++) {
		cands[2 * i] = v[i].op->name;
		cands[2 * i + 1] = v[i].snake;
	}
	best = suggest_closest(name, cands, 2 * n);
	s = best ? xasprintf(" (did you mean '%s'?)", best) : xstrdup("");
	free(cands);
	return s;
}

static void no_such(const struct op_item *v, size_t n, const char *opdir, const char *name, const struct src_loc *at,
		    struct diag *diag)
{
	char *dym = did_you_mean(v, n, name);

	if (at)
		diag_at(diag, DIAG_ERROR, *at, "the rules name operator '%s', which %s does not hold%s", name, opdir, dym);
	else
		diag_plain(diag, DIAG_ERROR, "--op %s: %s holds no such operator%s", name, opdir, dym);
	free(dym);
	list_notes(v, n, diag);
}

int project_op_choose(const struct project_host *hosts, size_t nhosts, const char *opdir, const struct rule_policy *p,
		      const char *want, struct project_op_choice *out, struct diag *diag)
{
	struct op_item *v = NULL;
	size_t n = list_ops(hosts, nhosts, &v);
	const char *rule = p->name.value;
	long at = -1, by_rule = -1;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->host = out->op = -1;
	out->count = n;
	if (n == 0) {
		/* a kernel tree alone: the name selects a kernel entry, which the planner checks */
		const char *name = want ? want : rule;
		if (name) {
			out->name = xstrdup(name);
			out->entry = xstrdup(name);
		}
		rc = 0;
		goto out;
	}
	if (rule && (by_rule = find_op(v, n, rule)) < 0) {
		no_such(v, n, opdir, rule, &p->name.loc, diag);
		goto out;
	}
	if (want && (at = find_op(v, n, want)) < 0) {
		no_such(v, n, opdir, want, NULL, diag);
		goto out;
	}
	if (at >= 0 && by_rule >= 0 && at != by_rule) {
		diag_at(diag, DIAG_ERROR, p->name.loc,
			"--op %s names operator %s, but these rules are for operator %s: give the rules of %s with --rules",
			want, v[at].op->name, v[by_rule].op->name, v[at].op->name);
		goto out;
	}
	if (at < 0)
		at = by_rule;
	if (at < 0 && n == 1)
		at = 0;
	if (at < 0) {
		diag_plain(diag, DIAG_ERROR,
			   "%s holds %zu operators: name the one to work on with --op NAME (or name \"NAME\"; in the "
			   "operator section of its rules)", opdir, n);
		list_notes(v, n, diag);
		goto out;
	}
	out->name = xstrdup(v[at].op->name);
	out->host = v[at].host;
	out->op = v[at].index;
	if (n > 1) {
		out->entry = xstrdup(v[at].snake);
		out->journal = xstrdup(v[at].snake);
	}
	rc = 0;
out:
	items_free(v, n);
	if (rc != 0)
		project_op_choice_release(out);
	return rc;
}

int project_op_select(const char *opdir, const struct rule_policy *p, const char *want, struct project_op_choice *out,
		      struct diag *diag)
{
	struct project_host *hosts = NULL;
	size_t n = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->host = out->op = -1;
	if (project_hosts_load(opdir, p, &hosts, &n, diag) != 0)
		return -1;
	rc = project_op_choose(hosts, n, opdir, p, want, out, diag);
	project_hosts_free(hosts, n);
	return rc;
}

void project_op_choice_release(struct project_op_choice *c)
{
	free(c->name);
	free(c->entry);
	free(c->journal);
	c->name = c->entry = c->journal = NULL;
	c->host = c->op = -1;
}

char *project_op_journal(const struct project_op_choice *c, const char *base)
{
	return c->journal ? xasprintf("%s.%s", base, c->journal) : xstrdup(base);
}
