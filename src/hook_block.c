/* Placement, text and detection of the G1 preprocessor hook block. */
#include "hook_block.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

static bool cmd_matches(const struct src_file *f, const struct sh_cmd *c, const struct rule_regex *re)
{
	return rule_regex_match(re, f->data + c->start, c->end - c->start);
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
static long build_after(const struct src_file *f, const struct sh_script *sh, size_t k,
			const struct rule_regex *before, int depth)
{
	int fn = sh->cmds[k].func;

	for (size_t j = k + 1; j < sh->ncmds; j++)
		if (sh->cmds[j].func == fn && sh->cmds[j].defines < 0 && cmd_matches(f, &sh->cmds[j], before))
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

int hook_find_place(const struct src_file *f, const struct sh_script *sh, const struct rule_regex *after,
		    const struct rule_regex *before, struct hook_place *out, struct diag *diag)
{
	long first_def = -1, first_dead = -1, first_nobuild = -1;
	char *after_text = rule_regex_text(after), *before_text = rule_regex_text(before);
	int ret = -1;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < sh->ncmds; k++) {
		const struct sh_cmd *c = &sh->cmds[k];
		long j;
		uint32_t ind;
		if (c->defines >= 0 || !cmd_matches(f, c, after))
			continue;
		if (inside_matching_def(sh, c, after) >= 0) {
			if (first_def < 0)
				first_def = (long)k;
			continue;
		}
		if (!sh_cmd_reachable(sh, k)) {
			if (first_dead < 0)
				first_dead = (long)k;
			continue;
		}
		j = build_after(f, sh, k, before, 0);
		if (j < 0) {
			if (first_nobuild < 0)
				first_nobuild = (long)k;
			continue;
		}
		if (c->nwords < 2) {
			diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
				"this copy call has no destination argument: the hook cannot tell where the build tree is");
			goto out;
		}
		out->copy_cmd = k;
		out->build_cmd = (size_t)j;
		out->insert_at = c->line_end;
		ind = c->line_start;
		while (ind < c->start && (f->data[ind] == ' ' || f->data[ind] == '\t'))
			ind++;
		out->indent = xstrndup(f->data + c->line_start, ind - c->line_start);
		out->dest = xstrndup(f->data + c->words[c->nwords - 1].start,
				     c->words[c->nwords - 1].end - c->words[c->nwords - 1].start);
		ret = 0;
		goto out;
	}
	if (first_nobuild >= 0) {
		diag_at(diag, DIAG_ERROR, cmd_loc(f, &sh->cmds[first_nobuild]),
			"no build step matching %s follows this copy call in the flow that runs it", before_text);
	} else if (first_def >= 0) {
		const struct sh_cmd *c = &sh->cmds[first_def];
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
			"the only match of %s is inside the definition of '%s', which is not where the copy runs",
			after_text, sh->funcs[inside_matching_def(sh, c, after)].name);
	} else if (first_dead >= 0) {
		const struct sh_cmd *c = &sh->cmds[first_dead];
		diag_at(diag, DIAG_ERROR, cmd_loc(f, c),
			"the only match of %s is inside function '%s', which the script never calls", after_text,
			sh->funcs[c->func].name);
	} else {
		for (size_t i = 0; i < sh->nfuncs; i++) {
			if (name_matches(after, sh->funcs[i].name)) {
				const struct sh_cmd *h = &sh->cmds[sh->funcs[i].header_cmd];
				diag_at(diag, DIAG_ERROR, cmd_loc(f, h),
					"'%s' is defined here but never called in this script, so nothing copies the "
					"sources into a build tree", sh->funcs[i].name);
				goto out;
			}
		}
		diag_pos(diag, DIAG_ERROR, f->path, 0, 0,
			 "no call matching %s copies the sources into a build tree in this script "
			 "(set the anchors with 'gate { hook after /RE/ before /RE/; }' or --after/--before)",
			 after_text);
	}
out:
	free(after_text);
	free(before_text);
	return ret;
}

void hook_place_release(struct hook_place *p)
{
	free(p->indent);
	free(p->dest);
	memset(p, 0, sizeof(*p));
}

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
	return 0;
}

char *hook_block_text(const struct hook_place *p, bool allow_missing)
{
	const char *i = p->indent, *d = p->dest;
	size_t cap = 2048 + 8 * strlen(i) + 2 * strlen(d);
	char *s = xmalloc(cap);
	int n;

	if (allow_missing)
		n = snprintf(s, cap,
			     "%s" HOOK_MARK_START " (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)\n"
			     "%sif command -v \"${AUTOTRACE:-autotrace}\" >/dev/null 2>&1; then\n"
			     "%s    \"${AUTOTRACE:-autotrace}\" preprocess --in-place --map %s/point_map.json %s || exit 1\n"
			     "%selse\n"
			     "%s    echo \"warning: autotrace not found (install it or set AUTOTRACE): building without preprocessing the trace points\" >&2\n"
			     "%sfi\n"
			     "%s" HOOK_MARK_END "\n",
			     i, i, i, d, d, i, i, i, i);
	else
		n = snprintf(s, cap,
			     "%s" HOOK_MARK_START " (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)\n"
			     "%sif command -v \"${AUTOTRACE:-autotrace}\" >/dev/null 2>&1; then\n"
			     "%s    \"${AUTOTRACE:-autotrace}\" preprocess --in-place --map %s/point_map.json %s || exit 1\n"
			     "%selse\n"
			     "%s    echo \"error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed\" >&2\n"
			     "%s    exit 1\n"
			     "%sfi\n"
			     "%s" HOOK_MARK_END "\n",
			     i, i, i, d, d, i, i, i, i, i);
	(void)n;
	return s;
}

char *hook_text_without(const struct src_file *f, const struct hook_found *b, size_t *len)
{
	char *s = xmalloc(f->len + 1);

	memcpy(s, f->data, b->start);
	memcpy(s + b->start, f->data + b->end, f->len - b->end);
	*len = f->len - (b->end - b->start);
	s[*len] = '\0';
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

int hook_verify(const struct src_file *f, const struct rule_regex *after, const struct rule_regex *before,
		struct diag *diag)
{
	struct hook_found b;
	struct hook_place place;
	struct sh_script sh, block;
	struct src_file *clean;
	char *text;
	size_t len;
	int findings = 0;
	long pre = -1;

	if (hook_find_block(f, &b, diag) != 0)
		return 1;
	if (!b.present) {
		diag_pos(diag, DIAG_ERROR, f->path, 0, 0,
			 "no G1 hook block (" HOOK_MARK_START " ... " HOOK_MARK_END "): this build never preprocesses the "
			 "trace points; run 'autotrace hook install --script %s'", f->path);
		return 1;
	}
	text = hook_text_without(f, &b, &len);
	clean = src_file_from_buffer(f->path, text, len);
	free(text);
	sh_scan(clean->data, clean->len, &sh);
	if (hook_check_scannable(clean, &sh, diag) != 0 ||
	    hook_find_place(clean, &sh, after, before, &place, diag) != 0) {
		sh_script_release(&sh);
		src_file_free(clean);
		return -1;
	}
	/* where the block stands, in the script without it */
	{
		const struct sh_cmd *copy = &sh.cmds[place.copy_cmd], *build = &sh.cmds[place.build_cmd];
		struct src_loc at = src_loc_make(f, b.start_mark, b.start_mark + (uint32_t)strlen(HOOK_MARK_START));
		int fn = func_at(&sh, b.start);
		/* offsets in the script without the block, mapped back to the script */
		uint32_t shift = b.end - b.start;
		size_t copy_line = src_file_line(f, copy->start + (copy->start >= b.start ? shift : 0));
		size_t build_line = src_file_line(f, build->start + (build->start >= b.start ? shift : 0));
		if (b.start < copy->line_end) {
			if (fn >= 0 && fn != copy->func)
				diag_at(diag, DIAG_ERROR, at,
					"the hook is inside the definition of '%s', not in the flow that copies the sources (line %zu)",
					sh.funcs[fn].name, copy_line);
			else
				diag_at(diag, DIAG_ERROR, at,
					"the hook runs before the sources are copied into the build tree (line %zu)",
					copy_line);
			findings++;
		} else if (b.start > build->start) {
			if (fn >= 0 && fn != copy->func)
				diag_at(diag, DIAG_ERROR, at,
					"the hook is inside the definition of '%s', not in the flow that copies the sources (line %zu)",
					sh.funcs[fn].name, copy_line);
			else
				diag_at(diag, DIAG_ERROR, at, "the hook runs after the build step (line %zu)", build_line);
			findings++;
		} else if (fn != copy->func) {
			diag_at(diag, DIAG_ERROR, at,
				"the hook is not in the flow that copies the sources (line %zu) and builds (line %zu)",
				copy_line, build_line);
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
		findings++;
	} else {
		const struct sh_cmd *c = &block.cmds[pre];
		char *prog = xstrndup(f->data + b.start + c->words[0].start, c->words[0].end - c->words[0].start);
		char *last = xstrndup(f->data + b.start + c->words[c->nwords - 1].start,
				      c->words[c->nwords - 1].end - c->words[c->nwords - 1].start);
		char shown[4200];
		struct src_loc loc = src_loc_make(f, b.start + c->start, b.start + c->end);
		if (!program_exists(prog, shown, sizeof(shown))) {
			diag_at(diag, DIAG_ERROR, loc, "the hook calls %s, which does not exist on this machine", shown);
			findings++;
		}
		if (strcmp(last, place.dest) != 0) {
			diag_at(diag, DIAG_ERROR, loc,
				"the hook preprocesses %s, but the sources are copied to %s", last, place.dest);
			findings++;
		}
		free(prog);
		free(last);
	}
	sh_script_release(&block);
	hook_place_release(&place);
	sh_script_release(&sh);
	src_file_free(clean);
	return findings;
}
