/* Loading an operator project for the gates: rules, globs, layer readers. */
#include "gate_project.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gate_tokens.h"
#include "path_glob.h"
#include "rule_find.h"
#include "xalloc.h"

char *gate_snake(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *o = xmalloc(2 * n + 1);

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isupper(c)) {
			if (i > 0 && (islower((unsigned char)s[i - 1]) || isdigit((unsigned char)s[i - 1]) ||
				      (i + 1 < n && islower((unsigned char)s[i + 1]) && isupper((unsigned char)s[i - 1]))))
				o[k++] = '_';
			o[k++] = (char)tolower(c);
		} else {
			o[k++] = (char)c;
		}
	}
	o[k] = '\0';
	return o;
}

char *gate_camel(const char *snake)
{
	size_t n = strlen(snake), k = 0;
	char *o = xmalloc(n + 1);
	bool up = false;

	for (size_t i = 0; i < n; i++) {
		if (snake[i] == '_') {
			up = k > 0;
			continue;
		}
		o[k++] = up ? (char)(snake[i] >= 'a' && snake[i] <= 'z' ? snake[i] - 32 : snake[i]) : snake[i];
		up = false;
	}
	o[k] = '\0';
	return o;
}

bool gate_is_op_call(const struct gate_project *p, const struct py_call *c)
{
	for (size_t i = 0; i < p->npy_names; i++)
		if (strcmp(c->name, p->py_names[i]) == 0)
			return true;
	return false;
}

bool gate_profiling_suffix(const char *name)
{
	char *k = tv_name_key(name);
	size_t n = strlen(k);
	bool yes = n > 9 && strcmp(k + n - 9, "profiling") == 0;

	free(k);
	return yes;
}

const char *gate_project_anchor(const struct gate_project *p)
{
	for (size_t i = 0; i < p->policy->nsources; i++) {
		const char *path = p->policy->sources[i]->path;
		const char *base = strrchr(path, '/');
		if (strcmp(base ? base + 1 : path, "autotrace.rules") == 0)
			return path;
	}
	if (p->op_file)
		return p->op_file->path;
	if (p->kernels_read && p->kernels.n)
		return p->kernels.v[0].file->path;
	return NULL;
}

const char *gate_globs_text(const struct rule_strlist *l)
{
	static char buf[512];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && len + 8 < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "", l->v[i]);
	return buf;
}

/* Loads the files of `globs` under opdir; calls `each` for every one read. */
static int load_layer(const char *opdir, const struct rule_strlist *globs, struct src_file ***files, size_t *n,
		      struct diag *diag)
{
	char **found = NULL;
	size_t nf = 0;

	*files = NULL;
	*n = 0;
	if (globs->n == 0)
		return 0;
	if (path_glob(opdir, globs, &found, &nf, diag) != 0)
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

static void add_py_name(struct gate_project *p, const char *name)
{
	for (size_t i = 0; i < p->npy_names; i++)
		if (strcmp(p->py_names[i], name) == 0)
			return;
	p->py_names = xrealloc(p->py_names, (p->npy_names + 1) * sizeof(*p->py_names));
	p->py_names[p->npy_names++] = xstrdup(name);
}

static void derive_op(struct gate_project *p)
{
	p->prof_out = -1;
	p->py_returns = -1;
	for (size_t h = 0; h < p->nhosts && p->prof_out < 0; h++)
		for (size_t o = 0; o < p->hosts[h].od.nops; o++) {
			const struct opdef_op *op = &p->hosts[h].od.ops[o];
			long k = 0;
			if (op->nparams == 0)
				continue;
			if (!p->op) {
				p->op = op;
				p->op_file = p->hosts[h].f;
			}
			for (size_t i = 0; i < op->nparams; i++) {
				if (!op->params[i].output)
					continue;
				if (tv_names_profiling(op->params[i].name, p->profiling)) {
					p->op = op;
					p->op_file = p->hosts[h].f;
					p->prof_out = k;
					break;
				}
				k++;
			}
			if (p->prof_out >= 0)
				break;
		}
	/* torch.ops names: what the bindings register, else the op's snake_case */
	for (size_t b = 0; b < p->npybinds; b++)
		for (size_t i = 0; i < p->pybinds[b].pb.nnames; i++)
			if (!gate_profiling_suffix(p->pybinds[b].pb.names[i].name))
				add_py_name(p, p->pybinds[b].pb.names[i].name);
	if (p->npy_names == 0 && p->op && p->op->name[0]) {
		char *s = gate_snake(p->op->name);
		add_py_name(p, s);
		free(s);
	}
	if (p->op)
		p->py_returns = (long)p->op->noutputs - (p->required || p->prof_out < 0 ? 0 : 1);
}

struct gate_project *gate_project_load(const struct gate_opts *opts, struct diag *diag)
{
	struct gate_project *p;
	struct src_file **files;
	size_t n;
	struct stat st;

	if (stat(opts->opdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "gate: %s is not a directory", opts->opdir);
		return NULL;
	}
	p = xcalloc(1, sizeof(*p));
	p->opts = opts;
	p->policy = rule_find_and_load(opts->rules, opts->opdir, diag);
	if (!p->policy)
		goto fail;
	p->profiling = p->policy->profiling.value ? p->policy->profiling.value : "profiling_data";
	p->required = p->policy->mode == RULE_MODE_REQUIRED;

	if (load_layer(opts->opdir, &p->policy->host, &files, &n, diag) != 0)
		goto fail;
	p->hosts = n ? xcalloc(n, sizeof(*p->hosts)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->hosts[i].f = files[i];
		opdef_scan(files[i]->data, files[i]->len, &p->hosts[i].od);
	}
	p->nhosts = n;
	free(files);

	if (load_layer(opts->opdir, &p->policy->infer, &files, &n, diag) != 0)
		goto fail;
	p->infers = n ? xcalloc(n, sizeof(*p->infers)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->infers[i].f = files[i];
		infer_scan(files[i], &p->infers[i].inf);
	}
	p->ninfers = n;
	free(files);

	if (load_layer(opts->opdir, &p->policy->aclnn, &files, &n, diag) != 0)
		goto fail;
	p->aclnns = n ? xcalloc(n, sizeof(*p->aclnns)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->aclnns[i].f = files[i];
		aclnn_scan(files[i]->data, files[i]->len, &p->aclnns[i].ac);
	}
	p->naclnns = n;
	free(files);

	if (load_layer(opts->opdir, &p->policy->pybind, &files, &n, diag) != 0)
		goto fail;
	p->pybinds = n ? xcalloc(n, sizeof(*p->pybinds)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->pybinds[i].f = files[i];
		pybind_scan(files[i], &p->pybinds[i].pb);
	}
	p->npybinds = n;
	free(files);

	if (load_layer(opts->opdir, &p->policy->samples, &files, &n, diag) != 0)
		goto fail;
	p->samples = n ? xcalloc(n, sizeof(*p->samples)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->samples[i].f = files[i];
		p->samples[i].py = py_scan(files[i]->data, files[i]->len);
	}
	p->nsamples = n;
	free(files);

	if (p->policy->kernel.value) {
		p->kernel_root = path_join(opts->opdir, p->policy->kernel.value);
		if (stat(p->kernel_root, &st) == 0 && S_ISDIR(st.st_mode)) {
			p->kernels_read = gate_kernels_read(p->kernel_root, &p->kernels, diag) == 0;
		}
	}
	derive_op(p);
	return p;
fail:
	gate_project_free(p);
	return NULL;
}

void gate_project_free(struct gate_project *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nhosts; i++) {
		opdef_file_release(&p->hosts[i].od);
		src_file_free(p->hosts[i].f);
	}
	for (size_t i = 0; i < p->ninfers; i++) {
		infer_file_release(&p->infers[i].inf);
		src_file_free(p->infers[i].f);
	}
	for (size_t i = 0; i < p->naclnns; i++) {
		aclnn_file_release(&p->aclnns[i].ac);
		src_file_free(p->aclnns[i].f);
	}
	for (size_t i = 0; i < p->npybinds; i++) {
		pybind_file_release(&p->pybinds[i].pb);
		src_file_free(p->pybinds[i].f);
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		py_module_free(p->samples[i].py);
		src_file_free(p->samples[i].f);
	}
	for (size_t i = 0; i < p->npy_names; i++)
		free(p->py_names[i]);
	free(p->py_names);
	free(p->hosts);
	free(p->infers);
	free(p->aclnns);
	free(p->pybinds);
	free(p->samples);
	if (p->kernels_read)
		gate_kernels_release(&p->kernels);
	free(p->kernel_root);
	rule_policy_free(p->policy);
	free(p);
}
