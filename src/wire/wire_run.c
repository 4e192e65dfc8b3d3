/* wire_run: `wire` as a library step -- the project loaded, wire's plan
 * made, and unless it is a dry run written through the undo journal
 * (wire.h). cmd_wire.c prints the result; `instrument` reads it. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "undo_journal.h"
#include "wire.h"
#include "xalloc.h"

static size_t line_in(const char *text, size_t at)
{
	size_t line = 1;

	for (size_t i = 0; i < at; i++)
		line += text[i] == '\n';
	return line;
}

size_t wire_edit_line(const struct wire_result *r, size_t k)
{
	return line_in(r->text, r->wf->v[k].new_at);
}

int wire_run(const struct wire_run_opts *o, struct wire_run_result *r, struct diag *diag)
{
	struct project_opts po;
	unsigned errors0 = diag->errors;
	struct stat st;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (stat(o->opdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "wire: %s is not a directory", o->opdir);
		return -1;
	}
	memset(&po, 0, sizeof(po));
	po.opdir = o->opdir;
	po.rules = o->rules;
	po.op = o->op;
	po.without = o->without;
	r->project = project_load(&po, diag);
	if (!r->project || diag->errors > errors0)
		return -1;
	r->planned = true; /* r->w is wire_plan's from here, to release */
	if (wire_plan(&r->w, r->project, o->opdir, diag, &r->files, &r->nfiles) != 0) {
		r->internal = true;
		return -1;
	}
	for (size_t i = 0; i < r->nfiles; i++)
		r->nedits += r->files[i].wf->n;
	r->manual = r->w.manual;
	if (!o->dry_run && r->nfiles) {
		const char **paths = xmalloc(r->nfiles * sizeof(*paths)), **texts = xmalloc(r->nfiles * sizeof(*texts));
		const struct src_file **origs = xmalloc(r->nfiles * sizeof(*origs));
		size_t *lens = xmalloc(r->nfiles * sizeof(*lens));
		char *journal = project_op_journal(&r->project->choice, WIRE_UNDO_NAME);
		for (size_t i = 0; i < r->nfiles; i++) {
			paths[i] = r->files[i].wf->f->path;
			origs[i] = r->files[i].wf->create ? NULL : r->files[i].wf->f;
			texts[i] = r->files[i].text;
			lens[i] = r->files[i].len;
		}
		rc = undo_journal_write(o->opdir, r->project->root.abs, journal, "wire", paths, origs, texts, lens, r->nfiles, diag);
		r->written = rc == 0;
		free(paths);
		free(origs);
		free(texts);
		free(lens);
		free(journal);
		return rc;
	}
	return 0;
}

void wire_run_release(struct wire_run_result *r)
{
	wire_results_free(r->files, r->nfiles);
	if (r->planned)
		wire_release(&r->w);
	project_free(r->project);
	memset(r, 0, sizeof(*r));
}
