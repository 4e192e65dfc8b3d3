/* The G1 hook's context, made once for every command that places or checks it. */
#include "hook_setup.h"

#include <string.h>

#include "path_rel.h"
#include "project_root.h"
#include "sh_word.h"
#include "strbuf.h"
#include "xalloc.h"

int hook_tree_option(const char *word, struct diag *diag)
{
	struct src_file *f = src_file_from_buffer("--tree", word, strlen(word));
	int rc = sh_word_check_at(word, src_loc_make(f, 0, (uint32_t)f->len), false, diag);

	src_file_free(f);
	return rc;
}

static void put_word(struct strbuf *b, const char *w)
{
	char *q = sh_quote(w);

	strbuf_putc(b, ' ');
	strbuf_puts(b, q);
	free(q);
}

char *hook_install_command(const struct hook_invocation *inv, bool replace)
{
	struct strbuf b = { 0 };

	strbuf_puts(&b, "autotrace hook install");
	if (inv->rules) {
		put_word(&b, "--rules");
		put_word(&b, inv->rules);
	}
	put_word(&b, "--script");
	put_word(&b, inv->script);
	if (inv->tree) {
		put_word(&b, "--tree");
		put_word(&b, inv->tree);
	}
	if (replace)
		put_word(&b, "--replace");
	put_word(&b, inv->opdir);
	return strbuf_take(&b);
}

int hook_setup_init(struct hook_setup *hs, const struct hook_invocation *inv, const struct rule_policy *p,
		    struct diag *diag)
{
	struct project_root root;

	memset(hs, 0, sizeof(*hs));
	if (project_root_find(inv->opdir, p, &root, diag) != 0)
		return -1;
	hs->root_abs = xstrdup(root.abs);
	hs->opdir_abs = xstrdup(root.opdir_abs);
	project_root_release(&root);
	hs->opdir_rel = hook_opdir_rel(inv->script, inv->opdir);
	sh_start_find(hs->root_abs, inv->script, &hs->start);
	hs->fix = hook_install_command(inv, false);
	hs->fix_replace = hook_install_command(inv, true);
	{
		struct hook_invocation named = *inv;
		named.tree = "WORD";
		hs->fix_tree = hook_install_command(&named, false);
	}
	hs->ctx.after = p->hook_after;
	hs->ctx.before = p->hook_before;
	hs->ctx.opdir_rel = hs->opdir_rel;
	hs->ctx.opdir_abs = hs->opdir_abs;
	hs->ctx.root_abs = hs->root_abs;
	hs->ctx.start = &hs->start;
	hs->ctx.fix_replace = hs->fix_replace;
	hs->ctx.fix_tree = hs->fix_tree;
	if (inv->tree) {
		hs->tree_src = src_file_from_buffer("--tree", inv->tree, strlen(inv->tree));
		hs->ctx.tree = inv->tree;
		hs->ctx.tree_loc = src_loc_make(hs->tree_src, 0, (uint32_t)hs->tree_src->len);
	} else if (p->hook_tree.value) {
		hs->ctx.tree = p->hook_tree.value;
		hs->ctx.tree_loc = p->hook_tree.loc;
	}
	return 0;
}

void hook_setup_release(struct hook_setup *hs)
{
	sh_start_release(&hs->start);
	free(hs->opdir_rel);
	free(hs->opdir_abs);
	free(hs->root_abs);
	free(hs->fix);
	free(hs->fix_replace);
	free(hs->fix_tree);
	src_file_free(hs->tree_src);
	memset(hs, 0, sizeof(*hs));
}
