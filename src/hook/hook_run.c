/* hook install / remove over a session of one build script (hook_run.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write.h"
#include "hook_block.h"
#include "hook_run.h"
#include "path_rel.h"
#include "project_root.h"
#include "rule_find.h"
#include "xalloc.h"

/* A regex given on the command line, located in a buffer named after the option. */
static struct rule_regex *cli_regex(const char *opt, const char *pattern, struct src_file **holder,
				    struct diag *diag)
{
	size_t n = strlen(pattern);
	char *lit = xmalloc(n + 3);
	struct rule_regex *re;

	snprintf(lit, n + 3, "/%s/", pattern);
	*holder = src_file_from_buffer(opt, lit, n + 2);
	free(lit);
	re = rule_regex_compile(pattern, "", src_loc_make(*holder, 0, (uint32_t)n + 2), diag);
	return re;
}

/* The build script: --script, else the nearest match of the rules' build
 * globs on the way from the operator directory up to the project root. */
static char *find_script(const char *explicit_path, const char *opdir, const struct rule_policy *p,
			 struct diag *diag)
{
	struct project_root root;
	char *path = NULL;

	if (explicit_path)
		return xstrdup(explicit_path);
	if (project_root_find(opdir, p, &root, diag) != 0)
		return NULL;
	if (project_build_script(&root, &p->build, &path, diag) != 0)
		diag_plain(diag, DIAG_NOTE, "use --script FILE to name the build script");
	project_root_release(&root);
	return path;
}

int hook_session_open(struct hook_session *s, const struct hook_opts *o, struct diag *diag)
{
	struct hook_invocation inv;

	memset(s, 0, sizeof(*s));
	s->policy = rule_find_and_load(o->rules, o->opdir, diag);
	if (!s->policy)
		return -1;
	s->after = o->after ? cli_regex("--after", o->after, &s->after_src, diag) : NULL;
	s->before = o->before ? cli_regex("--before", o->before, &s->before_src, diag) : NULL;
	if ((o->after && !s->after) || (o->before && !s->before))
		return -1;
	s->script = find_script(o->script, o->opdir, s->policy, diag);
	if (!s->script)
		return -1;
	s->file = src_file_load(s->script);
	if (!s->file) {
		diag_pos(diag, DIAG_ERROR, s->script, 0, 0, "cannot read the build script: %s", strerror(errno));
		return -1;
	}
	inv.rules = o->rules;
	inv.script = s->script;
	inv.tree = o->tree;
	inv.opdir = o->opdir;
	if (hook_setup_init(&s->setup, &inv, s->policy, diag) != 0)
		return -1;
	s->have_setup = true;
	s->setup.ctx.after = s->after ? s->after : s->policy->hook_after;
	s->setup.ctx.before = s->before ? s->before : s->policy->hook_before;
	return 0;
}

void hook_session_close(struct hook_session *s)
{
	if (s->have_setup)
		hook_setup_release(&s->setup);
	src_file_free(s->file);
	free(s->script);
	rule_regex_free(s->after);
	rule_regex_free(s->before);
	src_file_free(s->after_src);
	src_file_free(s->before_src);
	rule_policy_free(s->policy);
	memset(s, 0, sizeof(*s));
}

/* An in-place block that preprocesses other operators' trees (the script
 * builds them in the same step) keeps them: the new block preprocesses this
 * operator's tree and theirs. A kept word that is not a safe shell word (a
 * hand edit) is dropped, with a warning. */
static void keep_other_trees(const struct src_file *f, const struct hook_found *b, const struct src_file *clean,
			     const struct sh_script *sh, const struct hook_ctx *ctx, struct hook_place *place,
			     struct diag *diag)
{
	char **trees;
	size_t n;

	hook_block_trees(f, b, &trees, &n);
	place->dest_at = 0; /* a new tree comes first */
	for (size_t k = 0; k < n; k++) {
		bool self = hook_same_tree(clean, sh, place, ctx, trees[k]), dup = false;
		for (size_t j = 0; j < place->nalso && !dup; j++)
			dup = strcmp(place->also[j], trees[k]) == 0;
		if (self)
			place->dest_at = place->nalso; /* its place in the block, kept */
		if (self || dup) {
			free(trees[k]);
			continue;
		}
		if (!hook_tree_word_ok(trees[k])) {
			diag_at(diag, DIAG_WARNING, src_loc_make(f, b->start_mark, b->start_mark + (uint32_t)strlen(HOOK_MARK_START)),
				"the hook block names the tree %s, which is not a word autotrace writes (a plain path, quoted "
				"text with $VAR expansions, the script's own directory): it is not kept", trees[k]);
			free(trees[k]);
			continue;
		}
		place->also = xrealloc(place->also, (place->nalso + 1) * sizeof(*place->also));
		place->also[place->nalso++] = trees[k];
	}
	free(trees);
}

int hook_install_run(struct hook_session *s, const struct hook_opts *o, struct hook_install_result *r,
		     struct diag *diag)
{
	const char *path = s->script;
	const struct src_file *f = s->file;
	const struct hook_ctx *ctx = &s->setup.ctx;
	bool allow_missing = o->allow_missing, replace = o->replace, dry_run = o->dry_run;
	struct hook_found b;
	struct hook_place place;
	struct sh_script sh;
	struct src_file *clean;
	char *text, *block = NULL, *out, *replaced = NULL;
	size_t len, blen, rlen = 0;
	uint32_t cut_start = 0, cut_end = 0;
	int status = -1;

	memset(r, 0, sizeof(*r));
	s->setup.ctx.installing = true;
	if (hook_find_block(f, &b, diag) != 0)
		return -1;
	if (b.present && !b.ours && !replace) {
		diag_at(diag, DIAG_ERROR, src_loc_make(f, b.start_mark, b.start_mark + (uint32_t)strlen(HOOK_MARK_START)),
			"this hook block runs another preprocessor: remove it, or run 'autotrace hook install --replace' to "
			"have autotrace's block take its place (it keeps the old block, commented, for 'hook remove')");
		return -1;
	}
	/* a block that already took another preprocessor's place keeps it: installing again changes nothing */
	if (b.present && b.ours && b.replaced)
		replace = true;
	if (b.present && b.ours)
		text = hook_text_without(f, &b, &len);
	else if (b.present) {
		/* --replace of another preprocessor's block: it goes into ours */
		replaced = xstrndup(f->data + b.start, b.end - b.start);
		rlen = b.end - b.start;
		if (rlen && replaced[rlen - 1] == '\n')
			rlen--;
		text = xmalloc(f->len + 1);
		memcpy(text, f->data, b.start);
		memcpy(text + b.start, f->data + b.end, f->len - b.end);
		len = f->len - (b.end - b.start);
		text[len] = '\0';
	} else {
		text = xstrndup(f->data, f->len);
		len = f->len;
	}
	clean = src_file_from_buffer(path, text, len);
	free(text);
	sh_scan(clean->data, clean->len, &sh);
	if (hook_check_scannable(clean, &sh, diag) != 0 || hook_find_place(clean, &sh, ctx, &place, diag) != 0)
		goto out;
	if (place.in_place && b.present && b.ours)
		keep_other_trees(f, &b, clean, &sh, ctx, &place, diag);
	if (place.has_foreign) {
		const struct sh_cmd *c = &sh.cmds[place.foreign_cmd];
		if (!replace) {
			diag_at(diag, DIAG_ERROR, src_loc_make(clean, c->start, c->end),
				"this unmarked preprocessor call would run after the hook and rewrite point_map.json from "
				"sources whose points are already ids (an empty map): remove it, or run 'autotrace hook install "
				"--replace' to have the hook take its place (the call is kept in the block, commented, for "
				"'hook remove')");
			hook_place_release(&place);
			goto out;
		}
		/* the block takes the place of the call: it moves there, the call goes into it */
		cut_start = place.foreign_start;
		cut_end = place.foreign_end;
		free(replaced);
		rlen = cut_end - cut_start;
		replaced = xstrndup(clean->data + cut_start, rlen);
		if (rlen && replaced[rlen - 1] == '\n')
			rlen--;
		if (!place.in_place)
			place.insert_at = cut_start;
	}
	block = hook_block_text(&place, allow_missing, replaced, rlen);
	if (!block) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "internal error: the hook's tree %s is not a word autotrace writes; nothing written", place.dest);
		hook_place_release(&place);
		goto out;
	}
	blen = strlen(block);
	out = xmalloc(clean->len + blen + 1);
	{
		/* the clean script, the call replaced cut out, the block inserted */
		size_t n = 0;
		uint32_t at = place.insert_at;
		if (cut_end > cut_start && at >= cut_end)
			at -= cut_end - cut_start;
		for (uint32_t i = 0; i < clean->len; i++) {
			if (i >= cut_start && i < cut_end)
				continue;
			if (n == at) {
				memcpy(out + n, block, blen);
				n += blen;
			}
			out[n++] = clean->data[i];
		}
		if (n == at) {
			memcpy(out + n, block, blen);
			n += blen;
		}
		len = n;
		out[len] = '\0';
	}
	r->in_place = place.in_place;
	r->build_line = src_file_line(clean, sh.cmds[place.build_cmd].start);
	r->copy_line = place.in_place ? 0 : src_file_line(clean, sh.cmds[place.copy_cmd].start);
	r->dest = xstrdup(place.dest);
	r->others_kept = place.nalso > 0;
	r->replaced = replaced != NULL;
	if (place.in_place && place.tree_why) {
		r->tree_why = xstrdup(place.tree_why);
		if (place.from_start && ctx->start) {
			r->start_dir = path_display(ctx->start->dir);
			r->start_why = xstrdup(ctx->start->why);
		}
	}
	if (len == f->len && memcmp(out, f->data, len) == 0) {
		r->done = HOOK_ALREADY;
		status = 0;
	} else if (dry_run || atomic_write(path, out, len, diag) == 0) {
		r->done = b.present ? HOOK_MOVED : HOOK_INSTALLED;
		if (!place.in_place)
			for (const char *q = block; *q; q++)
				r->build_line += *q == '\n'; /* the build step, below the block */
		status = 0;
	}
	r->text = out;
	r->len = len;
	out = NULL;
	free(out);
	hook_place_release(&place);
out:
	free(block);
	free(replaced);
	sh_script_release(&sh);
	src_file_free(clean);
	return status;
}

void hook_install_result_release(struct hook_install_result *r)
{
	free(r->dest);
	free(r->tree_why);
	free(r->start_dir);
	free(r->start_why);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

int hook_remove_run(struct hook_session *s, const struct hook_opts *o, struct hook_remove_result *r,
		    struct diag *diag)
{
	const struct src_file *f = s->file;
	struct hook_found b;

	memset(r, 0, sizeof(*r));
	if (hook_find_block(f, &b, diag) != 0)
		return -1;
	if (!b.present)
		return 0;
	r->present = true;
	r->first_line = src_file_line(f, b.start);
	r->last_line = src_file_line(f, b.end ? b.end - 1 : 0);
	r->text = hook_text_without(f, &b, &r->len);
	return o->dry_run || atomic_write(s->script, r->text, r->len, diag) == 0 ? 0 : -1;
}

void hook_remove_result_release(struct hook_remove_result *r)
{
	free(r->text);
	memset(r, 0, sizeof(*r));
}
