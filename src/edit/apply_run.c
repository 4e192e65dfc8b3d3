/* apply_run: plan one operator, compute the edits of its points and the
 * runtime they need, and write them all together (apply_run.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply_run.h"
#include "edit_journal.h"
#include "path_glob.h"
#include "xalloc.h"

#ifndef DEVICEDIR
#define DEVICEDIR "/usr/local/share/autotrace/device"
#endif

/* The file on disk still holds what was planned from. */
static bool unchanged(const char *path, const struct src_file *f)
{
	struct src_file *now = src_file_load(path);
	bool same = now && now->len == f->len && memcmp(now->data, f->data, f->len) == 0;

	src_file_free(now);
	return same;
}

/* The points the plan inserts in unit u. */
static unsigned unit_points(const struct plan *pl, size_t u)
{
	const int *un;
	size_t nun = plan_unit_nodes(pl, u, &un);
	unsigned points = 0;

	for (size_t i = 0; i < nun; i++)
		if (pl->nodes[un[i]].fate == PLAN_FATE_INSERT)
			points++;
	return points;
}

/* The tags of apply's in the sources in shapes apply does not write (a
 * user's `x = 1; // autotrace`): strip, which finds what apply inserted by
 * its tags, could not tell the user's code from it; reported, -1. */
static int foreign_tags(const struct plan *pl, struct diag *diag)
{
	int rc = 0;

	for (size_t u = 0; u < pl->nunits; u++) {
		const struct src_file *f = pl->units[u].file;
		struct edit_foreign fv[EDIT_FOREIGN_MAX];
		size_t nf = 0, len;
		unsigned removed;
		if (!src_file_has_word(f, "autotrace", true))
			continue; /* every tag holds the word: no tokenizing a file without it */
		free(edit_strip(f->data, f->len, false, &len, &removed, fv, &nf));
		for (size_t k = 0; k < nf && k < EDIT_FOREIGN_MAX; k++)
			diag_at(diag, DIAG_ERROR, src_loc_make(f, fv[k].off, fv[k].end),
				"%s: apply finds what it inserted by these tags, and strip would take this for its own; "
				"change it (another comment word) before instrumenting", fv[k].why);
		rc |= nf ? -1 : 0;
	}
	return rc;
}

/* The edits of every unit into r->files; the plan's refusals reported. */
static int compute(struct apply_result *r, struct diag *diag)
{
	struct plan *pl = r->plan;

	if (foreign_tags(pl, diag) != 0)
		return -1;

	for (size_t i = 0; i < pl->nnodes; i++) {
		const struct plan_node *n = &pl->nodes[i];
		const struct plan_unit *u = &pl->units[n->unit];
		if (n->fate == PLAN_FATE_MACRO)
			diag_at(diag, DIAG_NOTE, src_loc_make(u->file, n->scope.start, n->scope.end), "%s", n->why);
		else if (n->fate == PLAN_FATE_REFUSED)
			diag_at(diag, DIAG_ERROR, src_loc_make(u->file, n->scope.start, n->scope.start), "%s", n->why);
	}
	if (pl->errors)
		return -1;
	r->files = xcalloc(pl->nunits + 1, sizeof(*r->files));
	for (size_t u = 0; u < pl->nunits; u++) {
		struct edit_list el;
		struct apply_file *f = &r->files[r->nfiles];
		int rc = 0;
		edit_list_init(&el);
		if (edit_unit(pl, u, &el, diag) != 0) {
			rc = -1;
		} else if (el.n) {
			if (edit_list_apply(&el, pl->units[u].file, &f->text, &f->len, diag) != 0) {
				r->internal = true;
				rc = -1;
			} else if (f->len == pl->units[u].file->len && memcmp(f->text, pl->units[u].file->data, f->len) == 0) {
				free(f->text);
				f->text = NULL;
			} else {
				f->path = pl->units[u].path;
				f->fs_path = pl->units[u].fs_path;
				f->orig = pl->units[u].file;
				f->points = unit_points(pl, u);
				r->points += f->points;
				r->nfiles++;
			}
		}
		edit_list_release(&el);
		if (rc != 0)
			return -1;
	}
	plan_warn_density(pl, diag);
	{
		/* the runtime the points need, when the operator's base lacks it */
		const char *dev = rule_find_data_dir("AUTOTRACE_DEVICE_DIR", DEVICEDIR, "device");
		char *rtp = path_join(dev, "moe_tracing.h");
		int rc = edit_runtime_provide(pl, rtp, &r->runtime, diag);
		free(rtp);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* Writes r's files and runtime together, when nothing changed under them. */
static int write_all(struct apply_result *r, struct edit_lock *lock, struct diag *diag)
{
	const struct plan *pl = r->plan;
	const struct edit_runtime *rt = &r->runtime;
	const char **paths, **texts;
	size_t *lens, n = 0;
	int rc;

	if (rt->created && access(rt->path, F_OK) == 0) {
		diag_pos(diag, DIAG_ERROR, rt->path, 0, 0,
			 "apply would create this base header for the trace point runtime, but it exists: "
			 "name it in the rules' 'base' setting; nothing written");
		return -1;
	}
	paths = xcalloc(r->nfiles + 2, sizeof(*paths));
	texts = xcalloc(r->nfiles + 2, sizeof(*texts));
	lens = xcalloc(r->nfiles + 2, sizeof(*lens));
	for (size_t i = 0; i < r->nfiles; i++) {
		paths[n] = r->files[i].fs_path;
		texts[n] = r->files[i].text;
		lens[n++] = r->files[i].len;
	}
	rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (!unchanged(paths[i], r->files[i].orig)) {
			diag_plain(diag, DIAG_ERROR, "apply: %s changed while it was being planned; nothing written", paths[i]);
			rc = -1;
		}
	if (rc == 0 && rt->path && !rt->created && !unchanged(rt->path, pl->units[pl->base].file)) {
		diag_plain(diag, DIAG_ERROR, "apply: %s changed while it was being planned; nothing written", rt->path);
		rc = -1;
	}
	if (rc == 0 && rt->path) {
		paths[n] = rt->path;
		texts[n] = rt->text;
		lens[n++] = rt->len;
	}
	if (rc == 0)
		rc = edit_write_files(lock, paths, texts, lens, n, diag);
	free(paths);
	free(texts);
	free(lens);
	return rc;
}

int apply_run(const struct apply_opts *o, struct apply_result *r, struct diag *diag)
{
	struct rule_cache *cache;
	const struct rule_policy *p;
	struct edit_lock *lock = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->choice.host = r->choice.op = -1;
	cache = o->cache ? o->cache : &r->own_cache;
	/* before anything is read: an interrupted run is completed first, and
	 * a second run on the tree waits for none and interleaves with none */
	if (o->mode == APPLY_WRITE && !(lock = edit_lock_acquire(o->opdir, "apply", diag)))
		return -1;
	p = rule_cache_get(cache, o->rules, o->opdir, diag);
	if (p && project_op_select(o->opdir, p, o->op, &r->choice, diag) == 0 &&
	    (r->plan = plan_build(p, o->opdir, r->choice.entry, diag)) != NULL) {
		if (compute(r, diag) != 0)
			diag_plain(diag, DIAG_ERROR, "apply: nothing written");
		else if (o->mode != APPLY_WRITE)
			rc = 0;
		else if (write_all(r, lock, diag) == 0)
			rc = 0, r->written = true;
	}
	edit_lock_release(lock);
	return rc;
}

void apply_result_release(struct apply_result *r)
{
	for (size_t i = 0; i < r->nfiles; i++)
		free(r->files[i].text);
	free(r->files);
	edit_runtime_release(&r->runtime);
	plan_free(r->plan);
	project_op_choice_release(&r->choice);
	rule_cache_release(&r->own_cache);
	memset(r, 0, sizeof(*r));
}
