/* Placement, text and detection of the G1 preprocessor hook block. */
#include "hook_block.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path_rel.h"
#include "sh_eval.h"
#include "sh_word.h"
#include "xalloc.h"

static char *word_text(const struct src_file *f, const struct sh_word *w)
{
	return xstrndup(f->data + w->start, w->end - w->start);
}

/* The command word of `c` (assignments skipped), or -1. */
static long command_word(const struct src_file *f, const struct sh_cmd *c)
{
	struct sh_script view;

	memset(&view, 0, sizeof(view));
	view.data = f->data;
	view.len = f->len;
	return sh_cmd_word(&view, c);
}

static bool word_is(const struct src_file *f, const struct sh_word *w, const char *lit)
{
	size_t n = strlen(lit);

	return w->end - w->start == n && memcmp(f->data + w->start, lit, n) == 0;
}

/* The anchors match a command's code: what its arguments quote ("log "build:
 * bash build.sh"") does not count; the command word itself does. */
static bool cmd_matches(const struct src_file *f, const struct sh_cmd *c, const struct rule_regex *re)
{
	size_t n = c->end - c->start;
	char *t = xstrndup(f->data + c->start, n);
	uint32_t first_end = c->nwords ? c->words[0].end - c->start : 0;
	char q = 0;
	bool yes;

	for (size_t i = first_end; i < n; i++) {
		char ch = t[i];
		if (q) {
			if (ch == '\\' && q == '"' && i + 1 < n) {
				t[i] = t[i + 1] = ' ';
				i++;
				continue;
			}
			if (ch == q)
				q = 0;
			else
				t[i] = ' ';
		} else if (ch == '"' || ch == '\'') {
			q = ch;
		}
	}
	yes = rule_regex_match(re, t, n);
	free(t);
	return yes;
}

/* A build step matches `re` and runs something: a command that only handles
 * the build script as a file (`chmod +x deepep/build.sh`, `cp build.sh
 * out/`, `ls`, `echo`) names it without running a build. */
static bool build_step_matches(const struct src_file *f, const struct sh_cmd *c, const struct rule_regex *re)
{
	static const char *const file_tools[] = {
		"chmod", "chown", "cp", "mv", "rm", "ln", "ls", "cat", "echo", "printf", "touch", "test", "[", "[[",
		"sed", "grep", "find", "stat", "mkdir", "dos2unix", "git", "install", "log", "tar", "wc", "head", "tail",
	};
	long w = command_word(f, c);

	if (!cmd_matches(f, c, re))
		return false;
	for (size_t i = 0; w >= 0 && i < sizeof(file_tools) / sizeof(file_tools[0]); i++)
		if (word_is(f, &c->words[w], file_tools[i]))
			return false;
	return true;
}

static bool name_matches(const struct rule_regex *re, const char *name)
{
	return rule_regex_match(re, name, strlen(name));
}

/* The function, among `c`'s enclosing ones, whose name matches `re`, or -1. */
static int inside_matching_def(const struct sh_script *sh, const struct sh_cmd *c, const struct rule_regex *re)
{
	for (int fn = c->func; fn >= 0; fn = sh->funcs[fn].parent)
		if (name_matches(re, sh->funcs[fn].name))
			return fn;
	return -1;
}

/* The first build step after command `k` in its flow; when its function
 * returns first, the build step may follow the call of that function. */
static long build_after(const struct src_file *f, const struct sh_script *sh, size_t k, const struct rule_regex *before,
			int depth)
{
	int fn = sh->cmds[k].func;

	for (size_t j = k + 1; j < sh->ncmds; j++)
		if (sh->cmds[j].func == fn && sh->cmds[j].defines < 0 && build_step_matches(f, &sh->cmds[j], before))
			return (long)j;
	if (fn < 0 || depth > 8)
		return -1;
	for (size_t c = 0; c < sh->ncmds; c++) {
		const struct sh_cmd *call = &sh->cmds[c];
		const struct sh_word *w = call->nwords ? &call->words[0] : NULL;
		long j;
		if (!w || call->defines >= 0 || call->func == fn)
			continue;
		if (w->end - w->start != strlen(sh->funcs[fn].name) ||
		    memcmp(f->data + w->start, sh->funcs[fn].name, w->end - w->start) != 0)
			continue;
		if (!sh_cmd_reachable(sh, c))
			continue;
		j = build_after(f, sh, c, before, depth + 1);
		if (j >= 0)
			return j;
	}
	return -1;
}

static struct src_loc cmd_loc(const struct src_file *f, const struct sh_cmd *c)
{
	return src_loc_make(f, c->start, c->end);
}

/* The fix of a tree the hook cannot tell: the command that names it. */
static void tree_fix(const struct hook_ctx *ctx, const char *what, struct diag *diag)
{
	if (ctx->fix_tree)
		diag_plain(diag, DIAG_NOTE, "%s, WORD being %s (or the rules' 'gate { hook tree \"WORD\"; }')", ctx->fix_tree,
			   what);
}

/* ---- what a copy writes to ---- */

static bool is_copy_program(const struct src_file *f, const struct sh_word *w)
{
	return word_is(f, w, "cp") || word_is(f, w, "rsync") || word_is(f, w, "install") || word_is(f, w, "/bin/cp");
}

/* The destination operand of a cp / rsync command: its last word that is not
 * an option; -1 when there is none. */
static long copy_operand(const struct src_file *f, const struct sh_cmd *c, long cw)
{
	for (long k = (long)c->nwords - 1; k > cw + 1; k--)
		if (f->data[c->words[k].start] != '-')
			return k;
	return -1;
}

/* The positional parameter (1..9) a word starts with: "$2", "${2}/x",
 * "\"${dst}\"/op_host" with `dst` assigned from $2 in the function; 0 none. */
static int positional_of(const struct src_file *f, const struct sh_script *sh, int fn, const struct sh_word *w)
{
	const char *s = f->data + w->start, *e = f->data + w->end;
	char var[64];
	size_t n = 0;

	if (s < e && *s == '"')
		s++;
	if (s >= e || *s != '$')
		return 0;
	s++;
	if (s < e && *s == '{')
		s++;
	while (s < e && n + 1 < sizeof(var) && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
						(*s >= '0' && *s <= '9') || *s == '_'))
		var[n++] = *s++;
	var[n] = '\0';
	if (n == 1 && var[0] >= '1' && var[0] <= '9')
		return var[0] - '0';
	if (!n)
		return 0;
	/* local dst="$2" / dst=$2 in the function */
	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		if (c->func != fn)
			continue;
		for (size_t i = 0; i < c->nwords; i++) {
			const char *a = f->data + c->words[i].start;
			size_t al = c->words[i].end - c->words[i].start;
			if (al > n + 2 && memcmp(a, var, n) == 0 && a[n] == '=') {
				const char *v = a + n + 1, *ve = a + al;
				if (v < ve && *v == '"')
					v++, ve--;
				if (ve - v >= 2 && v[0] == '$' && v[1] >= '1' && v[1] <= '9' && ve - v == 2)
					return v[1] - '0';
				if (ve - v == 4 && v[0] == '$' && v[1] == '{' && v[2] >= '1' && v[2] <= '9' && v[3] == '}')
					return v[2] - '0';
			}
		}
	}
	return 0;
}

/* The tree a copy call writes to, as a shell word of the call site (newly
 * allocated), or NULL after reporting why it cannot be told. */
static char *copy_dest_word(const struct src_file *f, const struct sh_script *sh, const struct sh_cmd *c,
			    struct diag *diag)
{
	long cw = command_word(f, c), op;
	char *name;
	int fn;

	if (cw < 0) {
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c), "this copy call has no command: the hook cannot tell where the build tree is");
		return NULL;
	}
	if (is_copy_program(f, &c->words[cw])) {
		op = copy_operand(f, c, cw);
		if (op < 0) {
			diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
				"this copy call has no destination argument: the hook cannot tell where the build tree is");
			return NULL;
		}
		return word_text(f, &c->words[op]);
	}
	name = word_text(f, &c->words[cw]);
	fn = sh_find_func(sh, name, strlen(name));
	if (fn < 0) {
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
			"'%s' is not defined in this script, so the hook cannot see where it copies the sources: name the "
			"build tree with --tree", name);
		free(name);
		return NULL;
	}
	/* the argument the helper's cp / rsync writes to */
	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *in = &sh->cmds[k];
		long icw = command_word(f, in);
		int pos;
		if (in->func != fn || icw < 0 || !is_copy_program(f, &in->words[icw]))
			continue;
		op = copy_operand(f, in, icw);
		if (op < 0)
			continue;
		pos = positional_of(f, sh, fn, &in->words[op]);
		if (pos > 0 && (size_t)(cw + pos) < c->nwords) {
			free(name);
			return word_text(f, &c->words[cw + pos]);
		}
	}
	diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
		"the hook cannot tell which argument of '%s' is the build tree (no cp or rsync in it writes to one of "
		"its arguments): name it with --tree", name);
	free(name);
	return NULL;
}

/* The copy's destination as the block writes it again: the script's word
 * with its expansions quoted (sh_word_requote: the block runs it as shell
 * code, where it must neither split nor glob nor run anything). */
static char *copy_dest(const struct src_file *f, const struct sh_script *sh, const struct sh_cmd *c,
		       const struct hook_ctx *ctx, struct diag *diag)
{
	char *w = copy_dest_word(f, sh, c, diag), *what, *q = NULL;
	size_t at, len;
	const char *why;

	if (w && !(q = sh_word_requote(w, &at, &len, &why)))
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
			"this copy writes to %s, which the hook cannot write again (%s): name the build tree with --tree", w,
			why);
	free(w);
	w = q;
	if (!w) {
		what = xasprintf("the build tree the copy at line %zu writes to, as the script writes it there",
				 src_file_line(f, c->start));
		tree_fix(ctx, what, diag);
		free(what);
	}
	return w;
}

/* ---- the in-place form ---- */

/* `abs` as the report writes it: from the project root ("." for itself). */
static char *from_root(const struct hook_ctx *ctx, const char *abs)
{
	if (ctx->root_abs && path_within(abs, ctx->root_abs))
		return path_relative(ctx->root_abs, abs);
	return xstrdup(abs);
}

static char *script_dir_abs(const struct src_file *f)
{
	char *abs = path_absolute(f->path), *slash;

	if (!abs)
		return NULL;
	slash = strrchr(abs, '/');
	if (slash && slash != abs)
		*slash = '\0';
	return abs;
}

/* What the flow model needs: where the script starts, the project, the
 * directories an unknown variable may lead to. `sdir` is owned by the caller. */
static struct sh_eval_ctx eval_ctx(const struct hook_ctx *ctx, const char *sdir)
{
	struct sh_eval_ctx ec;

	ec.start = ctx->start ? ctx->start->dir : sdir;
	ec.root = ctx->root_abs;
	ec.anchors[0] = sdir;
	ec.anchors[1] = ctx->opdir_abs;
	return ec;
}

/* The operator directory's path cannot be written into the script
 * (sh_word_literal): reported at the build step. */
static void unwritable(const struct src_file *f, const struct sh_cmd *bc, const struct hook_ctx *ctx,
		       struct diag *diag)
{
	char *shown = from_root(ctx, ctx->opdir_abs);

	for (char *c = shown; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	diag_at(diag, DIAG_ERROR, cmd_loc(f, bc),
		"this build step compiles the operator directory %s in place, and its path holds a newline or another "
		"control character (shown '?'): the hook cannot write it into the build script, whose block is read "
		"back line by line; rename the directory", shown);
	free(shown);
}

/* The operator directory as the build step at command b sees it, from the
 * directory the flow is in at the step's line: a path from there after a
 * relative cd (or one computed: `cd "$(dirname "$0")/.."`), the cd's own
 * word and the path below it after `cd "${ROOT_DIR}/csrc"`, the script's own
 * directory when nothing changed the directory. NULL after reporting. */
static char *inplace_tree(const struct src_file *f, const struct sh_script *sh, size_t b, const struct hook_ctx *ctx,
			  char **why, bool *from_start, struct diag *diag)
{
	const struct sh_cmd *bc = &sh->cmds[b];
	char *sdir, *tree = NULL, *rel, *what;
	struct sh_eval_ctx ec;
	struct sh_dir d;

	*why = NULL;
	*from_start = false;
	what = xasprintf("the operator directory as the build step at line %zu sees it", src_file_line(f, bc->start));
	if (!ctx->opdir_rel || !ctx->opdir_abs) {
		diag_at(diag, DIAG_ERROR, cmd_loc(f, bc),
			"this build step compiles the sources in place, but the operator directory is not known here: "
			"name it with --tree");
		tree_fix(ctx, what, diag);
		free(what);
		return NULL;
	}
	sdir = script_dir_abs(f);
	ec = eval_ctx(ctx, sdir);
	sh_eval_dir(f, sh, b, bc->line_start, &ec, &d);
	if (d.cmd < 0) {
		/* nothing changed the directory: the operator from the script's own, wherever it starts */
		char *q = strcmp(ctx->opdir_rel, ".") == 0 ? NULL : sh_word_literal(ctx->opdir_rel);
		if (strcmp(ctx->opdir_rel, ".") == 0)
			tree = xstrdup(HOOK_SCRIPT_DIR_WORD);
		else if (q)
			tree = xasprintf(HOOK_SCRIPT_DIR_WORD "/%s", q);
		else
			unwritable(f, bc, ctx, diag);
		free(q);
		*why = tree ? xstrdup("no cd before the build step: the tree is named from the script's own directory") : NULL;
		goto out;
	}
	{
		const struct sh_cmd *cd = &sh->cmds[d.cmd];
		int n = (int)(cd->end - cd->start);
		if (!d.abs) {
			diag_at(diag, DIAG_ERROR, cmd_loc(f, cd),
				"the build step (line %zu) runs in the directory this goes to, which depends on %s: name the "
				"operator directory as the build step sees it with --tree",
				src_file_line(f, bc->start), d.unknown ? d.unknown : "something not known here");
			tree_fix(ctx, what, diag);
			goto out;
		}
		if (ctx->root_abs && !path_within(d.abs, ctx->root_abs)) {
			diag_at(diag, DIAG_ERROR, cmd_loc(f, cd),
				"the build step (line %zu) runs in %s, outside the project %s: name the operator directory as "
				"the build step sees it with --tree",
				src_file_line(f, bc->start), d.abs, ctx->root_abs);
			tree_fix(ctx, what, diag);
			goto out;
		}
		rel = path_relative(d.abs, ctx->opdir_abs);
		tree = d.word ? sh_word_join(d.word, rel) : sh_word_literal(rel);
		free(rel);
		if (!tree) {
			unwritable(f, bc, ctx, diag);
			goto out;
		}
		if (d.assumed_var) {
			char *v = from_root(ctx, d.assumed_value);
			*why = xasprintf("after `%.*s` at line %zu, taking %s%s%s for %s%s", n, f->data + cd->start,
					 src_file_line(f, cd->start), d.assumed_var[0] >= '1' && d.assumed_var[0] <= '9' ? "$" : "${",
					 d.assumed_var, d.assumed_var[0] >= '1' && d.assumed_var[0] <= '9' ? "" : "}",
					 ctx->root_abs && strcmp(d.assumed_value, ctx->root_abs) == 0 ? "the project root " : "", v);
			free(v);
		} else {
			*why = xasprintf("after `%.*s` at line %zu%s", n, f->data + cd->start, src_file_line(f, cd->start),
					 d.from_start ? ", from the directory the script starts in" : "");
		}
		*from_start = d.from_start;
	}
out:
	sh_dir_release(&d);
	free(sdir);
	free(what);
	return tree;
}

char *hook_tree_path(const struct src_file *f, const struct sh_script *sh, const struct hook_place *place,
		     const struct hook_ctx *ctx)
{
	size_t at = place->in_place ? place->build_cmd : place->copy_cmd;
	uint32_t point = place->in_place ? sh->cmds[at].line_start : sh->cmds[at].line_end;
	char *sdir = script_dir_abs(f), *abs;
	struct sh_eval_ctx ec = eval_ctx(ctx, sdir);

	abs = sh_eval_word(f, sh, at, point, &ec, place->dest);
	free(sdir);
	return abs;
}

/* "given by --tree", "given by the rules (x.rules:4)". */
static char *given_why(const struct hook_ctx *ctx)
{
	const struct src_file *f = ctx->tree_loc.file;

	if (!f || strcmp(f->path, "--tree") == 0)
		return xstrdup("given by --tree");
	return xasprintf("given by the rules' hook tree (%s:%zu)", f->path, src_file_line(f, ctx->tree_loc.start));
}

/* The tree given by the user, for the block at `point`: it may not name a
 * directory outside the project (the block would rewrite files there). Sets
 * out->dest and out->tree_why; returns 0, or -1 after reporting. */
static int given_tree(const struct src_file *f, const struct sh_script *sh, size_t at, uint32_t point,
		      const struct hook_ctx *ctx, bool in_place, struct hook_place *out, struct diag *diag)
{
	char *sdir = script_dir_abs(f), *abs;
	struct sh_eval_ctx ec = eval_ctx(ctx, sdir);
	int rc = 0;

	abs = sh_eval_word(f, sh, at, point, &ec, ctx->tree);
	if (abs && in_place && ctx->root_abs && !path_within(abs, ctx->root_abs)) {
		char *rel = path_relative(ctx->root_abs, abs);
		diag_at(diag, DIAG_ERROR, ctx->tree_loc,
			"this tree names %s from the project root at line %zu, outside the project: the hook would "
			"rewrite the files there", rel, src_file_line(f, sh->cmds[at].start));
		free(rel);
		rc = -1;
	} else if (abs && in_place && ctx->installing && ctx->opdir_abs && strcmp(abs, ctx->opdir_abs) != 0) {
		char *o = from_root(ctx, ctx->opdir_abs), *t = from_root(ctx, abs);
		char *st = from_root(ctx, ctx->start ? ctx->start->dir : sdir);
		diag_at(diag, DIAG_WARNING, ctx->tree_loc,
			"this tree names %s at line %zu (the script followed from %s), not the operator directory %s", t,
			src_file_line(f, sh->cmds[at].start), st, o);
		free(o);
		free(t);
		free(st);
	}
	if (rc == 0) {
		out->dest = sh_word_for(ctx->tree);
		out->tree_why = given_why(ctx);
	}
	free(abs);
	free(sdir);
	return rc;
}

char *hook_opdir_rel(const char *script, const char *opdir)
{
	char *dir = xstrdup(script), *slash = strrchr(dir, '/'), *sabs, *oabs, *rel = NULL;

	if (slash)
		*slash = '\0';
	sabs = path_absolute(slash ? dir : ".");
	oabs = path_absolute(opdir);
	if (sabs && oabs)
		rel = path_relative(sabs, oabs);
	free(dir);
	free(sabs);
	free(oabs);
	return rel;
}

/* ---- placement ---- */

/* A preprocessor that is not autotrace's: the field's trace_preprocessor.py. */
static bool is_foreign_preprocessor(const struct src_file *f, const struct sh_cmd *c)
{
	size_t n = c->end - c->start;
	const char *t = f->data + c->start;

	for (size_t i = 0; i + 18 <= n; i++)
		if (memcmp(t + i, "trace_preprocessor", 18) == 0)
			return true;
	return false;
}

/* An unmarked preprocessor call in [from, to) of the flow `func`. */
static void find_foreign(const struct src_file *f, const struct sh_script *sh, int func, uint32_t from, uint32_t to,
			 struct hook_place *out)
{
	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		if (c->func != func || c->start < from || c->start >= to || !is_foreign_preprocessor(f, c))
			continue;
		out->has_foreign = true;
		out->foreign_cmd = k;
		out->foreign_start = c->line_start;
		out->foreign_end = c->line_end;
		return;
	}
}

/* An EXIT trap in the flow of command b (the in-place block sets its own). */
static long exit_trap(const struct src_file *f, const struct sh_script *sh, size_t b)
{
	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		long w = command_word(f, c);
		if (w < 0 || !word_is(f, &c->words[w], "trap") || (c->func != sh->cmds[b].func && c->func >= 0))
			continue;
		for (size_t i = (size_t)w + 1; i < c->nwords; i++)
			if (word_is(f, &c->words[i], "EXIT") || word_is(f, &c->words[i], "0"))
				return (long)k;
	}
	return -1;
}

static char *indent_of(const struct src_file *f, const struct sh_cmd *c)
{
	uint32_t ind = c->line_start;

	while (ind < c->start && (f->data[ind] == ' ' || f->data[ind] == '\t'))
		ind++;
	return xstrndup(f->data + c->line_start, ind - c->line_start);
}

/* In place: the first build step that runs, with its tree. */
static int place_in_place(const struct src_file *f, const struct sh_script *sh, const struct hook_ctx *ctx,
			  struct hook_place *out, struct diag *diag)
{
	char *before_text = rule_regex_text(ctx->before), *after_text = rule_regex_text(ctx->after);
	int ret = -1;

	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		long trap;
		if (c->defines >= 0 || !build_step_matches(f, c, ctx->before) || !sh_cmd_reachable(sh, k))
			continue;
		trap = exit_trap(f, sh, k);
		if (trap >= 0) {
			diag_at(diag, DIAG_ERROR, cmd_loc(f, &sh->cmds[trap]),
				"this script sets an EXIT trap of its own, and the in-place hook puts the sources back with "
				"one: copy the sources into a build tree instead, or name the copy with 'hook after'");
			goto out;
		}
		if (ctx->tree) {
			if (given_tree(f, sh, k, c->line_start, ctx, true, out, diag) != 0)
				goto out;
		} else {
			out->dest = inplace_tree(f, sh, k, ctx, &out->tree_why, &out->from_start, diag);
		}
		if (!out->dest)
			goto out;
		out->in_place = true;
		out->build_cmd = k;
		out->insert_at = c->line_start;
		out->indent = indent_of(f, c);
		find_foreign(f, sh, c->func, 0, c->start, out);
		ret = 0;
		goto out;
	}
	diag_pos(diag, DIAG_ERROR, f->path, 1, 0,
		 "no call matching %s copies the sources into a build tree, and no build step matching %s runs in this "
		 "script (set the anchors with 'gate { hook after /RE/ before /RE/; }' or --after/--before)",
		 after_text, before_text);
out:
	free(before_text);
	free(after_text);
	return ret;
}

int hook_find_place(const struct src_file *f, const struct sh_script *sh, const struct hook_ctx *ctx,
		    struct hook_place *out, struct diag *diag)
{
	long first_def = -1, first_dead = -1, first_nobuild = -1;
	char *after_text = rule_regex_text(ctx->after), *before_text = rule_regex_text(ctx->before);
	bool any = false;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		long j;
		if (c->defines >= 0 || !cmd_matches(f, c, ctx->after))
			continue;
		any = true;
		if (inside_matching_def(sh, c, ctx->after) >= 0) {
			if (first_def < 0)
				first_def = (long)k;
			continue;
		}
		if (!sh_cmd_reachable(sh, k)) {
			if (first_dead < 0)
				first_dead = (long)k;
			continue;
		}
		j = build_after(f, sh, k, ctx->before, 0);
		if (j < 0) {
			if (first_nobuild < 0)
				first_nobuild = (long)k;
			continue;
		}
		if (ctx->tree) {
			if (given_tree(f, sh, k, c->line_end, ctx, false, out, diag) != 0)
				goto out;
		} else {
			out->dest = copy_dest(f, sh, c, ctx, diag);
			out->tree_why = out->dest ? xasprintf("what the copy at line %zu writes to", src_file_line(f, c->start)) : NULL;
		}
		if (!out->dest)
			goto out;
		out->copy_cmd = k;
		out->build_cmd = (size_t)j;
		out->insert_at = c->line_end;
		out->indent = indent_of(f, c);
		find_foreign(f, sh, c->func, c->line_end,
			     sh->cmds[j].func == c->func ? sh->cmds[j].start : (uint32_t)f->len, out);
		ret = 0;
		goto out;
	}
	for (size_t i = 0; i < sh->nfuncs && !any; i++)
		any = name_matches(ctx->after, sh->funcs[i].name);
	if (!any) {
		/* nothing copies: the build compiles the sources where they are */
		ret = place_in_place(f, sh, ctx, out, diag);
		goto out;
	}
	if (first_nobuild >= 0) {
		diag_at(diag, DIAG_ERROR, cmd_loc(f, &sh->cmds[first_nobuild]),
			"no build step matching %s follows this copy call in the flow that runs it", before_text);
	} else if (first_def >= 0) {
		const struct sh_cmd *c = &sh->cmds[first_def];
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
			"the only match of %s is inside the definition of '%s', which is not where the copy runs",
			after_text, sh->funcs[inside_matching_def(sh, c, ctx->after)].name);
	} else if (first_dead >= 0) {
		const struct sh_cmd *c = &sh->cmds[first_dead];
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
			"the only match of %s is inside function '%s', which the script never calls", after_text,
			sh->funcs[c->func].name);
	} else {
		for (size_t i = 0; i < sh->nfuncs; i++) {
			if (name_matches(ctx->after, sh->funcs[i].name)) {
				const struct sh_cmd *h = &sh->cmds[sh->funcs[i].header_cmd];
				diag_at(diag, DIAG_ERROR, cmd_loc(f, h),
					"'%s' is defined here but never called in this script, so nothing copies the "
					"sources into a build tree", sh->funcs[i].name);
				goto out;
			}
		}
	}
out:
	free(after_text);
	free(before_text);
	return ret;
}

void hook_place_release(struct hook_place *p)
{
	for (size_t i = 0; i < p->nalso; i++)
		free(p->also[i]);
	free(p->also);
	free(p->indent);
	free(p->dest);
	free(p->tree_why);
	memset(p, 0, sizeof(*p));
}

/* ---- the block ---- */

/* The offset where a marker line begins (after indentation), or NULL. */
static const char *find_marker(const char *from, const char *end, const char *mark)
{
	size_t ml = strlen(mark);

	for (const char *p = from; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(le - q) >= ml && memcmp(q, mark, ml) == 0)
			return q;
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

static bool range_has(const struct src_file *f, uint32_t start, uint32_t end, const char *word)
{
	size_t n = strlen(word);

	for (uint32_t i = start; i + n <= end; i++)
		if (memcmp(f->data + i, word, n) == 0)
			return true;
	return false;
}

int hook_find_block(const struct src_file *f, struct hook_found *out, struct diag *diag)
{
	const char *end = f->data + f->len;
	const char *s = find_marker(f->data, end, HOOK_MARK_START);
	const char *e = find_marker(f->data, end, HOOK_MARK_END);
	const char *nl;

	memset(out, 0, sizeof(*out));
	if (!s && !e)
		return 0;
	if (!s || !e || e < s) {
		const char *at = s ? s : e;
		size_t ml = strlen(s ? HOOK_MARK_START : HOOK_MARK_END);
		diag_at(diag, DIAG_ERROR, src_loc_make(f, (uint32_t)(at - f->data), (uint32_t)(at - f->data + ml)),
			"the hook block is not closed: '%s' without '%s'", s ? HOOK_MARK_START : HOOK_MARK_END,
			s ? HOOK_MARK_END : HOOK_MARK_START);
		return -1;
	}
	{
		const char *again = find_marker(e, end, HOOK_MARK_START);
		if (again) {
			diag_at(diag, DIAG_ERROR,
				src_loc_make(f, (uint32_t)(again - f->data),
					     (uint32_t)(again - f->data + strlen(HOOK_MARK_START))),
				"a second hook block: the script should run the preprocessor once");
			return -1;
		}
	}
	out->present = true;
	out->start_mark = (uint32_t)(s - f->data);
	out->start = src_file_line_start(f, src_file_line(f, out->start_mark));
	nl = memchr(e, '\n', (size_t)(end - e));
	out->end = nl ? (uint32_t)(nl + 1 - f->data) : (uint32_t)f->len;
	out->ours = range_has(f, out->start, out->end, "preprocess --in-place");
	out->replaced = range_has(f, out->start, out->end, HOOK_REPLACED);
	return 0;
}

/* Appends to a growing string. */
static void cat(char **s, size_t *len, size_t *cap, const char *t)
{
	size_t n = strlen(t);

	XGROW(*s, *cap, *len + n + 1);
	memcpy(*s + *len, t, n + 1);
	*len += n;
}

/* The end of every block: what runs when autotrace is missing, the END marker. */
static void block_tail(char **s, size_t *len, size_t *cap, const char *i, bool allow_missing)
{
	char *t;

	if (allow_missing)
		t = xasprintf("%selse\n"
			      "%s    echo \"warning: autotrace not found (install it or set AUTOTRACE): building without "
			      "preprocessing the trace points\" >&2\n"
			      "%sfi\n",
			      i, i, i);
	else
		t = xasprintf("%selse\n"
			      "%s    echo \"error: autotrace not found (install it or set AUTOTRACE): the trace points cannot "
			      "be preprocessed\" >&2\n"
			      "%s    exit 1\n"
			      "%sfi\n",
			      i, i, i, i);
	cat(s, len, cap, t);
	free(t);
	t = xasprintf("%s" HOOK_MARK_END "\n", i);
	cat(s, len, cap, t);
	free(t);
}

/* The in-place block of several operators' trees, after its START line: one
 * assignment each (_autotrace_tree1=WORD, ...: evaluated where the single
 * form evaluates its one), then each tree checked, kept and preprocessed,
 * every one put back when the script ends. */
static void multi_tree_body(char **s, size_t *len, size_t *cap, const struct hook_place *p, bool allow_missing)
{
	const char *i = p->indent;
	char *t, *list = xstrdup("");
	size_t n = p->nalso + 1;

	for (size_t k = 0; k < n; k++) {
		char *l;
		const char *word = k == p->dest_at ? p->dest : p->also[k < p->dest_at ? k : k - 1];
		t = xasprintf("%s_autotrace_tree%zu=%s\n", i, k + 1, word);
		cat(s, len, cap, t);
		free(t);
		l = xasprintf("%s \"${_autotrace_tree%zu}\"", list, k + 1);
		free(list);
		list = l;
	}
	t = xasprintf("%sif command -v \"${AUTOTRACE:-autotrace}\" >/dev/null 2>&1; then\n"
		      "%s    _autotrace_orig=$(mktemp -d \"${TMPDIR:-/tmp}/autotrace-src.XXXXXX\") || exit 1\n"
		      "%s    trap 'for _autotrace_b in \"${_autotrace_orig}\"/*.tree; do cp -a \"${_autotrace_b%%.tree}/.\" "
		      "\"$(cat \"${_autotrace_b}\")/\"; done; rm -rf \"${_autotrace_orig}\"' EXIT\n"
		      "%s    _autotrace_n=0\n"
		      "%s    for _autotrace_tree in%s; do\n"
		      "%s        if [ ! -d \"${_autotrace_tree}\" ]; then\n"
		      "%s            echo \"error: ${_autotrace_tree}: no such directory: the trace points cannot be preprocessed\" >&2\n"
		      "%s            exit 1\n"
		      "%s        fi\n"
		      "%s        _autotrace_tree=$(cd \"${_autotrace_tree}\" && pwd) || exit 1\n"
		      "%s        _autotrace_n=$((_autotrace_n + 1))\n"
		      "%s        mkdir \"${_autotrace_orig}/${_autotrace_n}\" && cp -a \"${_autotrace_tree}/.\" "
		      "\"${_autotrace_orig}/${_autotrace_n}/\" && printf '%%s\\n' \"${_autotrace_tree}\" "
		      ">\"${_autotrace_orig}/${_autotrace_n}.tree\" || exit 1\n"
		      "%s        \"${AUTOTRACE:-autotrace}\" preprocess --in-place --map \"${_autotrace_tree}\"/point_map.json "
		      "\"${_autotrace_tree}\" || exit 1\n"
		      "%s    done\n",
		      i, i, i, i, i, list, i, i, i, i, i, i, i, i, i);
	cat(s, len, cap, t);
	free(t);
	free(list);
	block_tail(s, len, cap, i, allow_missing);
}

bool hook_tree_word_ok(const char *word)
{
	size_t bad, len, n = strlen(HOOK_SCRIPT_DIR_WORD);
	const char *why;
	char *q;

	if (strncmp(word, HOOK_SCRIPT_DIR_WORD, n) == 0) {
		if (!word[n])
			return true;
		if (word[n] != '/')
			return false;
		word += n + 1;
	}
	q = *word ? sh_word_requote(word, &bad, &len, &why) : NULL;
	free(q);
	return q != NULL;
}

/* A word the block may run as an argument: quoted so that it neither
 * splits nor globs (sh_word_requote leaves it as it is). */
static bool quoted_word(const char *word)
{
	size_t bad, len;
	const char *why;
	char *q = sh_word_requote(word, &bad, &len, &why);
	bool same = q && strcmp(q, word) == 0;

	free(q);
	return same;
}

void hook_block_trees(const struct src_file *f, const struct hook_found *b, char ***trees, size_t *n)
{
	*trees = NULL;
	*n = 0;
	if (!b->present || !b->ours)
		return;
	for (uint32_t at = b->start; at < b->end;) {
		const char *line = f->data + at, *nl = memchr(line, '\n', b->end - at), *q = line;
		size_t ll = nl ? (size_t)(nl - line) : b->end - at;
		at += (uint32_t)ll + 1;
		while (q < line + ll && (*q == ' ' || *q == '\t'))
			q++;
		if ((size_t)(line + ll - q) < 16 || strncmp(q, "_autotrace_tree", 15) != 0)
			continue;
		q += 15;
		while (*q >= '0' && *q <= '9')
			q++;
		if (*q != '=' || strncmp(q + 1, "$(cd \"${_autotrace_tree}\"", 25) == 0)
			continue; /* (the loop's own `_autotrace_tree=$(cd ... && pwd)`) */
		q++;
		*trees = xrealloc(*trees, (*n + 1) * sizeof(**trees));
		(*trees)[(*n)++] = xstrndup(q, (size_t)(line + ll - q));
	}
}

char *hook_block_text(const struct hook_place *p, bool allow_missing, const char *replaced, size_t replaced_len)
{
	const char *i = p->indent, *d = p->dest;
	char *s = NULL, *t;
	size_t len = 0, cap = 0;

	/* the last guard: every tree a word autotrace writes, nothing else becomes
	 * shell code; the copy form's, an argument of the preprocessor, quoted */
	if (!hook_tree_word_ok(p->dest) || (!p->in_place && !quoted_word(p->dest)))
		return NULL;
	for (size_t k = 0; k < p->nalso; k++)
		if (!hook_tree_word_ok(p->also[k]))
			return NULL;
	t = xasprintf("%s" HOOK_MARK_START " (autotrace: TRACE_POINT labels -> ids in the %s; "
		      "'autotrace hook remove' deletes this block)\n",
		      i, p->in_place ? "sources this build compiles where they are, put back when the script ends"
				     : "build tree");
	cat(&s, &len, &cap, t);
	free(t);
	/* what the block takes the place of, kept for `hook remove` */
	for (size_t k = 0; replaced && k < replaced_len;) {
		const char *nl = memchr(replaced + k, '\n', replaced_len - k);
		size_t e = nl ? (size_t)(nl - replaced) : replaced_len;
		t = xasprintf("%s" HOOK_REPLACED "%.*s\n", i, (int)(e - k), replaced + k);
		cat(&s, &len, &cap, t);
		free(t);
		k = e + 1;
	}
	if (p->in_place && p->nalso) {
		multi_tree_body(&s, &len, &cap, p, allow_missing);
		return s;
	}
	if (p->in_place) {
		t = xasprintf("%s_autotrace_tree=%s\n", i, d);
		cat(&s, &len, &cap, t);
		free(t);
		d = "\"${_autotrace_tree}\"";
	}
	t = xasprintf("%sif command -v \"${AUTOTRACE:-autotrace}\" >/dev/null 2>&1; then\n", i);
	cat(&s, &len, &cap, t);
	free(t);
	if (p->in_place) {
		t = xasprintf("%s    if [ ! -d %s ]; then\n"
			      "%s        echo \"error: %s: no such directory: the trace points cannot be preprocessed\" >&2\n"
			      "%s        exit 1\n"
			      "%s    fi\n"
			      "%s    _autotrace_tree=$(cd %s && pwd) || exit 1\n"
			      "%s    _autotrace_orig=$(mktemp -d \"${TMPDIR:-/tmp}/autotrace-src.XXXXXX\") && "
			      "cp -a %.*s/.\" \"${_autotrace_orig}/\" || exit 1\n"
			      "%s    trap 'cp -a \"${_autotrace_orig}/.\" %.*s/\" && rm -rf \"${_autotrace_orig}\"' EXIT\n",
			      i, d, i, "${_autotrace_tree}", i, i, i, d, i, (int)strlen(d) - 1, d, i, (int)strlen(d) - 1, d);
		cat(&s, &len, &cap, t);
		free(t);
	}
	t = xasprintf("%s    \"${AUTOTRACE:-autotrace}\" preprocess --in-place --map %s/point_map.json %s || exit 1\n", i, d, d);
	cat(&s, &len, &cap, t);
	free(t);
	block_tail(&s, &len, &cap, i, allow_missing);
	return s;
}

char *hook_text_without(const struct src_file *f, const struct hook_found *b, size_t *len)
{
	char *s = xmalloc(f->len + 1);
	size_t n = b->start;

	memcpy(s, f->data, b->start);
	/* the lines the block replaced go back where it stood */
	for (uint32_t at = b->start; at < b->end;) {
		const char *nl = memchr(f->data + at, '\n', b->end - at);
		uint32_t le = nl ? (uint32_t)(nl - f->data) : b->end, q = at;
		size_t ml = strlen(HOOK_REPLACED);
		while (q < le && (f->data[q] == ' ' || f->data[q] == '\t'))
			q++;
		if (le - q >= ml && memcmp(f->data + q, HOOK_REPLACED, ml) == 0) {
			memcpy(s + n, f->data + q + ml, le - q - ml);
			n += le - q - ml;
			if (nl)
				s[n++] = '\n';
		}
		at = nl ? le + 1 : b->end;
	}
	memcpy(s + n, f->data + b->end, f->len - b->end);
	n += f->len - b->end;
	s[n] = '\0';
	*len = n;
	return s;
}

int hook_check_scannable(const struct src_file *f, const struct sh_script *sh, struct diag *diag)
{
	if (sh->unclosed == UINT32_MAX)
		return 0;
	diag_at(diag, DIAG_ERROR, src_loc_make(f, sh->unclosed, sh->unclosed + 1),
		"cannot follow this script: unclosed %s", sh->unclosed_what);
	return -1;
}

/* ---- verify ---- */

/* The innermost function whose body holds offset `at`, or -1. */
static int func_at(const struct sh_script *sh, uint32_t at)
{
	int best = -1;

	for (size_t i = 0; i < sh->nfuncs; i++) {
		const struct sh_func *fn = &sh->funcs[i];
		if (fn->start < at && at < fn->body_end && (best < 0 || fn->start > sh->funcs[best].start))
			best = (int)i;
	}
	return best;
}

/* Is `prog` (a word of the block) something that runs here? */
static bool program_exists(const char *prog, char *shown, size_t shown_len)
{
	const char *env;
	char path[4096];

	if (strcmp(prog, "\"${AUTOTRACE:-autotrace}\"") == 0 || strcmp(prog, "${AUTOTRACE:-autotrace}") == 0) {
		env = getenv("AUTOTRACE");
		if (env && *env) {
			snprintf(shown, shown_len, "$AUTOTRACE (%s)", env);
			return access(env, X_OK) == 0 || strchr(env, '/') == NULL;
		}
		prog = "autotrace";
	}
	snprintf(shown, shown_len, "%s", prog);
	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	env = getenv("PATH");
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t n = colon ? (size_t)(colon - env) : strlen(env);
		snprintf(path, sizeof(path), "%.*s/%s", (int)n, n ? env : ".", prog);
		if (access(path, X_OK) == 0)
			return true;
		env = colon ? colon + 1 : NULL;
	}
	return false;
}

/* The offset in `f` of an offset in the script without the block `b`. */
static uint32_t in_script(const struct hook_found *b, uint32_t off, uint32_t removed_len, uint32_t restored_len)
{
	/* the clean text: [0, start) + restored + [end, len) */
	if (off < b->start)
		return off;
	if (off < b->start + restored_len)
		return b->start; /* inside what the block replaced */
	return off - restored_len + removed_len;
}

static void report_foreign(const struct src_file *f, const struct sh_script *sh, const struct hook_place *place,
			   const struct hook_found *b, uint32_t removed, uint32_t restored, const struct hook_ctx *ctx,
			   struct diag *diag)
{
	const struct sh_cmd *c = &sh->cmds[place->foreign_cmd];
	uint32_t s = in_script(b, c->start, removed, restored), e = in_script(b, c->end, removed, restored);

	diag_at(diag, DIAG_ERROR, src_loc_make(f, s, e > s ? e : s + 1),
		"this unmarked preprocessor call runs after the hook and rewrites point_map.json from sources whose "
		"points are already ids (an empty map): remove it, or let 'autotrace hook install --replace' take its "
		"place");
	if (ctx->fix_replace)
		diag_plain(diag, DIAG_NOTE, "run: %s", ctx->fix_replace);
}

/* Does the block's tree `word` name the tree the placement found? The same
 * word, or, for a word with no command substitution in it, the same
 * directory where the block stands ("mc2/op" after `cd csrc` is
 * "${ROOT_DIR}/csrc/mc2/op"). */
bool hook_same_tree(const struct src_file *clean, const struct sh_script *sh, const struct hook_place *place,
		    const struct hook_ctx *ctx, const char *word)
{
	size_t at = place->in_place ? place->build_cmd : place->copy_cmd, bad, len;
	uint32_t point = place->in_place ? sh->cmds[at].line_start : sh->cmds[at].line_end;
	const char *why;
	char *sdir, *a, *b;
	struct sh_eval_ctx ec;
	bool same;

	if (strcmp(word, place->dest) == 0)
		return true;
	if (sh_word_check(word, &bad, &len, &why) == SH_WORD_BAD)
		return false;
	sdir = script_dir_abs(clean);
	ec = eval_ctx(ctx, sdir);
	a = sh_eval_word(clean, sh, at, point, &ec, word);
	b = a ? hook_tree_path(clean, sh, place, ctx) : NULL;
	same = a && b && strcmp(a, b) == 0;
	free(a);
	free(b);
	free(sdir);
	return same;
}

int hook_verify(const struct src_file *f, const struct hook_ctx *ctx, struct diag *diag)
{
	struct hook_found b;
	struct hook_place place;
	struct sh_script sh, block;
	struct src_file *clean;
	char *text;
	size_t len;
	int findings = 0;
	long pre = -1;
	uint32_t removed, restored;

	if (hook_find_block(f, &b, diag) != 0)
		return 1;
	text = b.present ? hook_text_without(f, &b, &len) : xstrndup(f->data, f->len);
	if (!b.present)
		len = f->len;
	clean = src_file_from_buffer(f->path, text, len);
	free(text);
	removed = b.present ? b.end - b.start : 0;
	restored = b.present ? (uint32_t)(clean->len - (f->len - removed)) : 0;
	sh_scan(clean->data, clean->len, &sh);
	if (hook_check_scannable(clean, &sh, diag) != 0 || hook_find_place(clean, &sh, ctx, &place, diag) != 0) {
		if (!b.present)
			diag_pos(diag, DIAG_ERROR, f->path, 1, 0,
				 "no G1 hook block (" HOOK_MARK_START " ... " HOOK_MARK_END "): this build never preprocesses "
				 "the trace points");
		sh_script_release(&sh);
		src_file_free(clean);
		return -1;
	}
	if (!b.present) {
		const struct sh_cmd *anchor = &sh.cmds[place.in_place ? place.build_cmd : place.copy_cmd];
		diag_at(diag, DIAG_ERROR, src_loc_make(f, anchor->start, anchor->end),
			place.in_place
				? "no G1 hook block (" HOOK_MARK_START " ... " HOOK_MARK_END ") before this build step: it "
				  "compiles %s with its trace points never preprocessed"
				: "no G1 hook block (" HOOK_MARK_START " ... " HOOK_MARK_END ") after this copy into %s: the "
				  "build never preprocesses the trace points",
			place.dest);
		findings++;
		if (place.has_foreign) {
			/* install alone refuses: the fix takes the other call's place */
			if (ctx->fix_replace)
				diag_plain(diag, DIAG_NOTE, "run: %s", ctx->fix_replace);
			report_foreign(f, &sh, &place, &b, 0, 0, ctx, diag);
			findings++;
		}
		goto out;
	}
	/* where the block stands, in the script without it */
	{
		const struct sh_cmd *build = &sh.cmds[place.build_cmd];
		const struct sh_cmd *anchor = place.in_place ? build : &sh.cmds[place.copy_cmd];
		struct src_loc at = src_loc_make(f, b.start_mark, b.start_mark + (uint32_t)strlen(HOOK_MARK_START));
		int fn = func_at(&sh, b.start);
		size_t copy_line = src_file_line(f, in_script(&b, anchor->start, removed, restored));
		size_t build_line = src_file_line(f, in_script(&b, build->start, removed, restored));
		uint32_t lo = place.in_place ? 0 : anchor->line_end;
		if (b.start < lo) {
			if (fn >= 0 && fn != anchor->func)
				diag_at(diag, DIAG_ERROR, at,
					"the hook is inside the definition of '%s', not in the flow that copies the sources (line %zu)",
					sh.funcs[fn].name, copy_line);
			else
				diag_at(diag, DIAG_ERROR, at,
					"the hook runs before the sources are copied into the build tree (line %zu)", copy_line);
			findings++;
		} else if (b.start > build->start) {
			if (fn >= 0 && fn != anchor->func)
				diag_at(diag, DIAG_ERROR, at,
					"the hook is inside the definition of '%s', not in the flow that %s (line %zu)",
					sh.funcs[fn].name, place.in_place ? "builds" : "copies the sources", copy_line);
			else
				diag_at(diag, DIAG_ERROR, at, "the hook runs after the build step (line %zu)", build_line);
			findings++;
		} else if (fn != anchor->func) {
			diag_at(diag, DIAG_ERROR, at,
				"the hook is not in the flow that copies the sources (line %zu) and builds (line %zu)",
				copy_line, build_line);
			findings++;
		}
		if (place.has_foreign && place.foreign_cmd < sh.ncmds &&
		    in_script(&b, sh.cmds[place.foreign_cmd].start, removed, restored) > b.start) {
			report_foreign(f, &sh, &place, &b, removed, restored, ctx, diag);
			findings++;
		}
	}
	/* what the block runs */
	sh_scan(f->data + b.start, b.end - b.start, &block);
	for (size_t k = 0; k < block.ncmds && pre < 0; k++)
		for (size_t w = 0; w < block.cmds[k].nwords; w++)
			if (block.cmds[k].words[w].end - block.cmds[k].words[w].start == 10 &&
			    memcmp(f->data + b.start + block.cmds[k].words[w].start, "preprocess", 10) == 0)
				pre = (long)k;
	if (pre < 0) {
		diag_at(diag, DIAG_ERROR,
			src_loc_make(f, b.start_mark, b.start_mark + (uint32_t)strlen(HOOK_MARK_START)),
			"the hook block does not run 'autotrace preprocess'");
		/* another preprocessor's block: install takes its place only when told to */
		if (ctx->fix_replace && !b.ours)
			diag_plain(diag, DIAG_NOTE, "run: %s", ctx->fix_replace);
		findings++;
	} else {
		const struct sh_cmd *c = &block.cmds[pre];
		char *prog = xstrndup(f->data + b.start + c->words[0].start, c->words[0].end - c->words[0].start);
		char *last = xstrndup(f->data + b.start + c->words[c->nwords - 1].start,
				      c->words[c->nwords - 1].end - c->words[c->nwords - 1].start);
		char shown[4200];
		struct src_loc loc = src_loc_make(f, b.start + c->start, b.start + c->end);
		if (strcmp(last, "\"${_autotrace_tree}\"") == 0) {
			/* the in-place form names its tree once, in _autotrace_tree= */
			for (size_t k = 0; k < block.ncmds; k++) {
				const struct sh_cmd *a = &block.cmds[k];
				const char *w0 = f->data + b.start + a->words[0].start;
				if (a->nwords == 1 && strncmp(w0, "_autotrace_tree=", 16) == 0) {
					free(last);
					last = xstrndup(w0 + 16, a->words[0].end - a->words[0].start - 16);
					break;
				}
			}
		}
		if (!program_exists(prog, shown, sizeof(shown))) {
			char self[4096];
			ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
			struct diag *td = ctx->tool_diag ? ctx->tool_diag : diag;
			diag_at(td, DIAG_ERROR, loc,
				"the hook calls %s, which does not exist on this machine: put autotrace on the build's PATH, "
				"or set AUTOTRACE to its path in the build's environment (the block runs "
				"\"${AUTOTRACE:-autotrace}\")", shown);
			if (n > 0) {
				/* the fix: this very autotrace, for the builds of this shell */
				char *q;
				self[n] = '\0';
				q = sh_quote(self);
				diag_plain(td, DIAG_NOTE, "run: export AUTOTRACE=%s", q);
				free(q);
			}
			findings++;
		}
		{
			/* an in-place block names its trees in _autotrace_tree[N]= lines: the
			   build's is one of them */
			char **trees;
			size_t nt;
			hook_block_trees(f, &b, &trees, &nt);
			for (size_t k = 0; k < nt; k++) {
				if (hook_same_tree(clean, &sh, &place, ctx, trees[k])) {
					free(last);
					last = xstrdup(place.dest);
				}
				free(trees[k]);
			}
			free(trees);
		}
		if (!hook_same_tree(clean, &sh, &place, ctx, last)) {
			diag_at(diag, DIAG_ERROR, loc,
				place.in_place ? "the hook preprocesses %s, but the build compiles %s"
					       : "the hook preprocesses %s, but the sources are copied to %s",
				last, place.dest);
			findings++;
		}
		free(prog);
		free(last);
	}
	sh_script_release(&block);
out:
	hook_place_release(&place);
	sh_script_release(&sh);
	src_file_free(clean);
	return findings;
}
