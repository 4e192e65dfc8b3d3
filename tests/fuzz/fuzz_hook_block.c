/* Fuzz target for the G1 hook block writer (hook_block.c over sh_word.c),
 * without a shell: the input's bytes, made a directory name (every byte kept
 * but NUL, read as a quote, and '/', read as a double quote), name the
 * operator csrc/mc2/NAME of a build script that builds in place -- after
 * `cd csrc`, with no cd, after `cd "${ROOT_DIR}/csrc"` -- and the input as
 * it is is a --tree, and the destination word of the script's copy call
 * (`copy_ops ./op INPUT`). The block is composed as install composes it,
 * then:
 *  - a name holding a newline or another control character is refused;
 *  - else the tree word reads back as exactly that path (sh_word_unquote,
 *    and sh_eval_word where the word expands a variable), autotrace takes it
 *    for one of its own words (hook_tree_word_ok: a second install keeps it),
 *    the hooked script scans (sh_scan) into as many commands of as many
 *    words as with the name "op", its block is found where it was put,
 *    removed it gives the script back, and its tree read back from it is
 *    that word -- the same for a block of two trees, the name's and op's;
 *  - a --tree that expands is written with its expansions quoted
 *    (sh_word_requote), a plain one reads back as itself;
 *  - a copy's destination the hook takes is written quoted (a word
 *    sh_word_requote leaves as it is), names what the script's word names
 *    where the block stands (sh_eval_word), and the block alone scans into
 *    the commands and words it has with the destination "out".
 * A broken property aborts (a crash: the driver and the engines report it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hook_block.h"
#include "rule_regex.h"
#include "sh_eval.h"
#include "sh_scan.h"
#include "sh_start.h"
#include "sh_word.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ROOT "/fuzz"
#define FORMS 3

static const char *const scripts[FORMS] = {
	"#!/bin/bash\nset -e\ncd csrc\nbash build.sh\n",
	"#!/bin/bash\nset -e\nbash build.sh\n",
	"#!/bin/bash\nset -e\ncd \"${ROOT_DIR}/csrc\"\nbash build.sh\n",
};

/* What sh_scan makes of a hooked script: its commands' word counts. */
struct shape {
	size_t ncmds;
	size_t nwords[64];
};

static FILE *null;
static struct rule_regex *after, *before;
static char root_dir[] = ROOT, start_why[] = "the fuzz target's project root";
static struct sh_start start = { root_dir, NULL, 0, start_why };
static struct shape ref_one[FORMS], ref_two[FORMS];

static void fail(const char *what, const char *name, const char *text)
{
	fprintf(stderr, "fuzz_hook_block: %s\nname: '%s'\n%s\n", what, name, text ? text : "");
	abort();
}

static void shape_of(const char *text, struct shape *out)
{
	struct sh_script sh;

	sh_scan(text, strlen(text), &sh);
	memset(out, 0, sizeof(*out));
	out->ncmds = sh.unclosed == UINT32_MAX ? sh.ncmds : 0;
	for (size_t i = 0; i < sh.ncmds && i < 64; i++)
		out->nwords[i] = sh.cmds[i].nwords;
	sh_script_release(&sh);
}

static bool same_shape(const struct shape *a, const struct shape *b)
{
	return a->ncmds && a->ncmds == b->ncmds && memcmp(a->nwords, b->nwords, sizeof(a->nwords)) == 0;
}

static void ctx_for(struct hook_ctx *ctx, const char *rel, const char *abs)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->after = after;
	ctx->before = before;
	ctx->opdir_rel = rel;
	ctx->opdir_abs = abs;
	ctx->root_abs = ROOT;
	ctx->start = &start;
	ctx->installing = true;
}

/* The script with `block` put at `at`. Newly allocated. */
static char *hooked(const struct src_file *f, uint32_t at, const char *block)
{
	return xasprintf("%.*s%s%s", (int)at, f->data, block, f->data + at);
}

/* The checks of a hooked script `text` made of `f` and `block` at `at`
 * that holds the trees `words` (n of them), for the name `name`. */
static void check_hooked(const struct src_file *f, uint32_t at, const char *block, const char *const *words, size_t n,
			 const struct shape *ref, const char *name, struct diag *diag)
{
	char *text = hooked(f, at, block), **trees, *back;
	struct src_file *h = src_file_from_buffer(f->path, text, strlen(text));
	struct shape sh;
	struct hook_found b;
	size_t nt, len;

	shape_of(text, &sh);
	if (!same_shape(&sh, ref))
		fail("the hooked script does not scan into the commands it has with a plain name", name, text);
	if (hook_find_block(h, &b, diag) != 0 || !b.present || !b.ours || b.start != at ||
	    b.end != at + (uint32_t)strlen(block))
		fail("the block is not found where it was put", name, text);
	back = hook_text_without(h, &b, &len);
	if (len != f->len || memcmp(back, f->data, len) != 0)
		fail("the script without the block is not the script", name, text);
	free(back);
	hook_block_trees(h, &b, &trees, &nt);
	if (nt != n)
		fail("the block does not name its trees", name, text);
	for (size_t k = 0; k < nt; k++) {
		if (strcmp(trees[k], words[k]) != 0)
			fail("a tree read back from the block is not the word written", name, text);
		free(trees[k]);
	}
	free(trees);
	src_file_free(h);
	free(text);
}

/* The word's path below the script's directory, read back without a shell:
 * "mc2/NAME" for every form (NULL when it does not read back). */
static char *read_back(int form, const char *word)
{
	static const char dir[] = HOOK_SCRIPT_DIR_WORD "/", root[] = "\"${ROOT_DIR}/csrc";
	size_t n = strlen(word);

	if (form == 0)
		return sh_word_unquote(word);
	if (form == 1)
		return strncmp(word, dir, strlen(dir)) == 0 ? sh_word_unquote(word + strlen(dir)) : NULL;
	/* "${ROOT_DIR}/csrc/mc2/NAME" (path characters) or "${ROOT_DIR}/csrc"/'mc2/NAME' */
	if (strncmp(word, root, strlen(root)) != 0)
		return NULL;
	if (strncmp(word + strlen(root), "\"/", 2) == 0)
		return sh_word_unquote(word + strlen(root) + 2);
	if (word[strlen(root)] == '/' && word[n - 1] == '"') {
		char *q = xasprintf("\"%.*s\"", (int)(n - strlen(root) - 2), word + strlen(root) + 1), *t;
		t = sh_word_unquote(q);
		free(q);
		return t;
	}
	return NULL;
}

static void one_form(int form, const char *name, struct diag *diag)
{
	struct src_file *f = src_file_from_buffer(ROOT "/csrc/build_aclnn.sh", scripts[form], strlen(scripts[form]));
	char *rel = xasprintf("mc2/%s", name), *abs = xasprintf(ROOT "/csrc/mc2/%s", name), *block, *path;
	struct sh_script sh;
	struct hook_ctx ctx;
	struct hook_place p;
	bool control = !sh_word_one_line(name);
	int rc;

	sh_scan(f->data, f->len, &sh);
	ctx_for(&ctx, rel, abs);
	diag->errors = 0;
	rc = hook_find_place(f, &sh, &ctx, &p, diag);
	if (control) {
		if (rc == 0 || diag->errors == 0)
			fail("a name holding a control character is written into the script", name, p.dest);
		hook_place_release(&p);
		goto out;
	}
	if (rc != 0 || !p.in_place)
		fail("no in-place block for a name without a control character", name, scripts[form]);
	path = read_back(form, p.dest);
	if (!path || strcmp(path, rel) != 0)
		fail("the tree word does not read back as the operator directory", name, p.dest);
	free(path);
	if (form == 2) {
		/* and as autotrace's own reading of the script takes it: the directory */
		struct sh_eval_ctx ec = { ROOT, ROOT, { NULL, abs } };
		char *v = sh_eval_word(f, &sh, p.build_cmd, sh.cmds[p.build_cmd].line_start, &ec, p.dest);
		if (!v || strcmp(v, abs) != 0)
			fail("the tree word does not name the operator directory where the block stands", name, p.dest);
		free(v);
	}
	if (!hook_tree_word_ok(p.dest))
		fail("the tree word is not one autotrace takes back from a block", name, p.dest);
	block = hook_block_text(&p, false, NULL, 0);
	if (!block)
		fail("no block text", name, p.dest);
	{
		const char *words[1] = { p.dest };
		check_hooked(f, p.insert_at, block, words, 1, &ref_one[form], name, diag);
	}
	free(block);
	/* a second install (the operator "op") keeps this tree */
	{
		struct hook_place two;
		const char *words[2];
		ctx_for(&ctx, "mc2/op", ROOT "/csrc/mc2/op");
		if (hook_find_place(f, &sh, &ctx, &two, diag) != 0)
			fail("no block for op", name, NULL);
		two.also = xmalloc(sizeof(*two.also));
		two.also[0] = xstrdup(p.dest);
		two.nalso = 1;
		two.dest_at = 0;
		block = hook_block_text(&two, false, NULL, 0);
		if (!block)
			fail("no block text of two trees", name, p.dest);
		words[0] = two.dest;
		words[1] = p.dest;
		check_hooked(f, two.insert_at, block, words, 2, &ref_two[form], name, diag);
		free(block);
		hook_place_release(&two);
	}
	hook_place_release(&p);
out:
	sh_script_release(&sh);
	src_file_free(f);
	free(rel);
	free(abs);
}

/* The input as --tree (what the option's check lets through), in the
 * script that builds after `cd csrc`. */
static void as_tree(const char *tree, struct diag *diag)
{
	struct src_file *f = src_file_from_buffer(ROOT "/csrc/build_aclnn.sh", scripts[0], strlen(scripts[0]));
	struct sh_script sh;
	struct hook_ctx ctx;
	struct hook_place p;
	size_t at, len;
	const char *why;
	enum sh_word_kind kind = sh_word_check(tree, &at, &len, &why);

	if (kind == SH_WORD_BAD) {
		src_file_free(f);
		return;
	}
	sh_scan(f->data, f->len, &sh);
	ctx_for(&ctx, "mc2/op", ROOT "/csrc/mc2/op");
	ctx.tree = tree;
	ctx.tree_loc = src_loc_make(f, 0, 0);
	if (hook_find_place(f, &sh, &ctx, &p, diag) != 0) {
		hook_place_release(&p);
	} else {
		char *block, *back = kind == SH_WORD_PLAIN ? sh_word_unquote(p.dest) : sh_word_requote(tree, &at, &len, &why);
		const char *words[1] = { p.dest };
		if (kind == SH_WORD_PLAIN ? !back || strcmp(back, tree) != 0 : !back || strcmp(p.dest, back) != 0)
			fail("the --tree word is not written as the tree given", tree, p.dest);
		free(back);
		if (!hook_tree_word_ok(p.dest) || !(block = hook_block_text(&p, false, NULL, 0)))
			fail("the --tree word is not one autotrace writes", tree, p.dest);
		check_hooked(f, p.insert_at, block, words, 1, &ref_one[0], tree, diag);
		free(block);
		hook_place_release(&p);
	}
	sh_script_release(&sh);
	src_file_free(f);
}

/* A script whose copy call writes to the word `dest` (its text put as it is). */
static struct src_file *copy_script(const char *dest)
{
	char *text = xasprintf("#!/bin/bash\ncopy_ops() { mkdir -p \"$2\" && cp -r \"$1\"/. \"$2\"/; }\ncd csrc\n"
			       "DEST=/fuzz/out\ncopy_ops ./op %s\nbash build.sh\n", dest);
	struct src_file *f = src_file_from_buffer(ROOT "/csrc/build_aclnn.sh", text, strlen(text));

	free(text);
	return f;
}

static struct shape ref_copy;

/* The block of the copy form, for the script's copy into `dest`, and what
 * sh_eval_word makes of the script's word and of the block's (NULL: not
 * known). NULL when the hook refuses the destination. */
static char *copy_block(const char *dest, struct diag *diag, char **names, char **written, char **word)
{
	struct src_file *f = copy_script(dest);
	struct sh_script sh;
	struct hook_ctx ctx;
	struct hook_place p;
	char *block = NULL;

	*names = *written = *word = NULL;
	sh_scan(f->data, f->len, &sh);
	ctx_for(&ctx, "op", ROOT "/csrc/op");
	if (hook_find_place(f, &sh, &ctx, &p, diag) == 0 && !p.in_place) {
		const struct sh_cmd *c = &sh.cmds[p.copy_cmd];
		struct sh_eval_ctx ec = { ROOT, ROOT, { NULL, NULL } };
		*word = xstrndup(f->data + c->words[2].start, c->words[2].end - c->words[2].start);
		*names = sh_eval_word(f, &sh, p.copy_cmd, c->line_end, &ec, *word);
		*written = sh_eval_word(f, &sh, p.copy_cmd, c->line_end, &ec, p.dest);
		block = hook_block_text(&p, false, NULL, 0);
		if (!block || !hook_tree_word_ok(p.dest)) {
			fprintf(stderr, "%s\n", p.dest);
			fail("the copy's destination taken, but no block written for it", dest, p.dest);
		}
		{
			size_t at, len;
			const char *why;
			char *again = sh_word_requote(p.dest, &at, &len, &why);
			if (!again || strcmp(again, p.dest) != 0)
				fail("the copy's destination is not written quoted", dest, p.dest);
			free(again);
		}
	}
	hook_place_release(&p);
	sh_script_release(&sh);
	src_file_free(f);
	return block;
}

/* The input as the destination of the script's copy call. */
static void as_copy(const char *dest, struct diag *diag)
{
	char *names, *written, *word, *block = copy_block(dest, diag, &names, &written, &word);
	struct shape sh;

	if (block) {
		if ((names || written) && (!names || !written || strcmp(names, written) != 0))
			fail("the block's tree does not name what the copy's destination names", word, written);
		shape_of(block, &sh);
		if (!same_shape(&sh, &ref_copy))
			fail("the block does not scan into the commands it has with the destination \"out\"", word, block);
	}
	free(names);
	free(written);
	free(word);
	free(block);
}

/* The shapes of the hooked scripts with the name "op" (and "op" with "op2"). */
static void references(struct diag *diag)
{
	for (int form = 0; form < FORMS; form++) {
		struct src_file *f = src_file_from_buffer(ROOT "/csrc/build_aclnn.sh", scripts[form], strlen(scripts[form]));
		struct sh_script sh;
		struct hook_ctx ctx;
		struct hook_place p;
		char *block, *text;
		sh_scan(f->data, f->len, &sh);
		ctx_for(&ctx, "mc2/op", ROOT "/csrc/mc2/op");
		if (hook_find_place(f, &sh, &ctx, &p, diag) != 0)
			fail("no reference block", "op", scripts[form]);
		block = hook_block_text(&p, false, NULL, 0);
		text = hooked(f, p.insert_at, block);
		shape_of(text, &ref_one[form]);
		free(text);
		free(block);
		p.also = xmalloc(sizeof(*p.also));
		p.also[0] = xstrdup("mc2/op2");
		p.nalso = 1;
		block = hook_block_text(&p, false, NULL, 0);
		text = hooked(f, p.insert_at, block);
		shape_of(text, &ref_two[form]);
		free(text);
		free(block);
		hook_place_release(&p);
		sh_script_release(&sh);
		src_file_free(f);
		if (!ref_one[form].ncmds || !ref_two[form].ncmds)
			fail("the reference block does not scan", "op", scripts[form]);
	}
	{
		char *names, *written, *word, *block = copy_block("out", diag, &names, &written, &word);
		if (!block)
			fail("no reference block of the copy form", "out", NULL);
		shape_of(block, &ref_copy);
		free(names);
		free(written);
		free(word);
		free(block);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct src_file *holder;
	struct diag diag;
	char *name, *tree;
	size_t n = size < 200 ? size : 200;

	if (!null) {
		null = fopen("/dev/null", "w");
		diag_init(&diag, null, false);
		holder = src_file_from_buffer("anchors", "/CopyOps/ /build/", 17);
		/* the default rules' anchors */
		after = rule_regex_compile("CopyOps|copy_ops", "", src_loc_make(holder, 0, 9), &diag);
		before = rule_regex_compile("(^|[\\s\\/])build\\.sh\\b|cmake\\s+--build", "", src_loc_make(holder, 10, 17), &diag);
		if (!after || !before)
			abort();
		references(&diag);
	}
	diag_init(&diag, null, false);
	/* the name: every byte a directory name may hold */
	name = xmalloc(n + 2);
	for (size_t i = 0; i < n; i++)
		name[i] = data[i] == 0 ? '\'' : data[i] == '/' ? '"' : (char)data[i];
	name[n] = '\0';
	if (n == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		name[n] = '_';
		name[n + 1] = '\0';
	}
	for (int form = 0; form < FORMS; form++)
		one_form(form, name, &diag);
	free(name);
	tree = xstrndup((const char *)data, n);
	if (*tree) {
		as_tree(tree, &diag);
		as_copy(tree, &diag);
	}
	free(tree);
	return 0;
}
