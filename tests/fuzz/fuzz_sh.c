/* Fuzz target for the shell scanner (sh_scan.c) and the G1 hook checks over
 * it: scan, follow reachability and the flow to each command (sh_eval.c),
 * check the input as a tree word (sh_word.c), read it as each kind of file
 * that may run a build script (sh_start.c), find the hook block and verify
 * it against the default anchors. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	static struct rule_regex *after, *before;
	static struct src_file *holder;
	struct diag diag;
	struct sh_script sh;
	struct src_file *f;
	struct hook_found b;

	if (!null) {
		null = fopen("/dev/null", "w");
		diag_init(&diag, null, false);
		holder = src_file_from_buffer("anchors", "/CopyOps/ /build/", 17);
		after = rule_regex_compile("CopyOps|copy_ops", "", src_loc_make(holder, 0, 9), &diag);
		before = rule_regex_compile("\\./build\\.sh|cmake\\s+--build", "", src_loc_make(holder, 10, 17), &diag);
	}
	diag_init(&diag, null, false);
	f = src_file_from_buffer("fuzz.sh", (const char *)data, size);
	sh_scan(f->data, f->len, &sh);
	for (size_t i = 0; i < sh.ncmds; i++) {
		(void)sh_cmd_reachable(&sh, i);
		if (i < 64) {
			struct sh_eval_ctx ec = { "/fuzz", "/fuzz", { "/fuzz/csrc", "/fuzz/csrc/op" } };
			struct sh_dir d;
			sh_eval_dir(f, &sh, i, sh.cmds[i].line_start, &ec, &d);
			sh_dir_release(&d);
			free(sh_eval_word(f, &sh, i, sh.cmds[i].line_end, &ec, "\"$ROOT\"/x"));
		}
		for (size_t w = 0; w < sh.cmds[i].nwords; w++)
			free(sh_word_text(&sh, &sh.cmds[i].words[w]));
	}
	sh_script_release(&sh);
	{
		/* the input as a tree word, up to its first NUL */
		char *w = xstrndup((const char *)data, size);
		size_t at, len;
		const char *why;
		(void)sh_word_check(w, &at, &len, &why);
		free(w);
	}
	{
		/* the input as each kind of file that may run csrc/build_aclnn.sh */
		static const char *const runners[] = { "tools/all.sh", "setup.py", "csrc/CMakeLists.txt",
						       ".github/workflows/b.yml", "GNUmakefile", NULL };
		for (int r = 0; runners[r]; r++) {
			struct sh_start st;
			sh_start_scan_text("/fuzz", "/fuzz/csrc/build_aclnn.sh", runners[r], f, &st);
			sh_start_release(&st);
		}
	}
	(void)hook_find_block(f, &b, &diag);
	if (after && before) {
		/* both forms: a known operator directory (in place) and none; a
		   given tree too */
		struct hook_ctx ctx;
		memset(&ctx, 0, sizeof(ctx));
		ctx.after = after;
		ctx.before = before;
		ctx.opdir_rel = "op";
		ctx.opdir_abs = "/fuzz/op";
		ctx.root_abs = "/fuzz";
		(void)hook_verify(f, &ctx, &diag);
		ctx.opdir_rel = NULL;
		ctx.opdir_abs = NULL;
		(void)hook_verify(f, &ctx, &diag);
		ctx.tree = "\"${ROOT}/csrc\"/op";
		(void)hook_verify(f, &ctx, &diag);
	}
	src_file_free(f);
	return 0;
}
