/* autotrace hook install|verify|remove: the G1 preprocessor hook in the build script. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "atomic_write.h"
#include "commands.h"
#include "exit_status.h"
#include "hook_block.h"
#include "sh_word.h"
#include "hook_setup.h"
#include "path_glob.h"
#include "path_rel.h"
#include "project_root.h"
#include "rule_find.h"
#include "udiff.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace hook install|verify|remove [options] [OPDIR]\n"
	      "\n"
	      "The G1 gate: the team's build script runs 'autotrace preprocess' on the\n"
	      "build-tree copy of the sources, in a block marked\n"
	      "  " HOOK_MARK_START " ... " HOOK_MARK_END "\n"
	      "placed right after the call that copies the sources into the build tree\n"
	      "(in the function or top-level flow that really runs it, never inside a\n"
	      "function definition that is merely there) and before the build step.\n"
	      "The build tree is what the copy writes to: the destination of cp / rsync,\n"
	      "or the argument a helper function of the script passes to its cp / rsync.\n"
	      "A script that copies nothing and builds the sources where they are gets\n"
	      "the block right before the build step: it preprocesses the operator\n"
	      "directory in place and puts the original files back when the script ends.\n"
	      "The operator directory is named as the build step sees it: the flow to\n"
	      "the step is followed (cd, pushd, popd, subshells, the script's functions,\n"
	      "its variables: 'cd csrc' gives mc2/op, 'cd \"${ROOT_DIR}/csrc\"' gives\n"
	      "\"${ROOT_DIR}/csrc/mc2/op\") from the directory the script starts in: where\n"
	      "what runs it in the project (another script, setup.py, CMake, a CI file,\n"
	      "a Makefile) runs it, else the project root; install says which.\n"
	      "The build script is found from OPDIR: the nearest match of the rules'\n"
	      "'build' patterns on the way up to the project root (of equals, not one\n"
	      "another runs, then the one naming OPDIR). An in-place block of one step\n"
	      "that builds several operators preprocesses each operator's tree.\n"
	      "\n"
	      "  install   insert the block (again, at the right place, if one exists)\n"
	      "  verify    exit 1 when the block is missing, misplaced, preprocesses\n"
	      "            another directory, calls a preprocessor that does not exist,\n"
	      "            or an unmarked preprocessor call would run after it\n"
	      "  remove    delete the block; the script is restored byte for byte\n"
	      "\n"
	      "Options:\n"
	      "  --script FILE     the build script (default: the nearest, as above)\n"
	      "  --rules FILE      the rules file (anchors: gate { hook after /RE/ before /RE/; })\n"
	      "  --after REGEX     the copy call (overrides the rules)\n"
	      "  --before REGEX    the build step (overrides the rules)\n"
	      "  --allow-missing   install a block that only warns when autotrace is missing\n"
	      "  --replace         take the place of another preprocessor's call or block\n"
	      "                    (kept in the block, commented; 'remove' puts it back)\n"
	      "  --tree WORD       the tree to preprocess, as the script writes it at the block:\n"
	      "                    a plain path (written quoted), or quoted text and $NAME /\n"
	      "                    ${NAME} expansions; anything else is refused (default: the\n"
	      "                    rules' 'gate { hook tree \"WORD\"; }', else found as above)\n"
	      "  --dry-run         print the change as a unified diff, write nothing\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "The block runs \"${AUTOTRACE:-autotrace}\": set AUTOTRACE in the build's\n"
	      "environment to use an autotrace that is not on PATH.\n"
	      "Exit status: 0 ok, 1 verify found problems, 2 bad usage or input.\n",
	      out);
}

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

static int write_or_show(const char *path, const struct src_file *f, const char *text, size_t len, bool dry_run,
			 struct diag *diag)
{
	if (dry_run) {
		udiff_print(stdout, path, f->data, f->len, text, len);
		return 0;
	}
	return atomic_write(path, text, len, diag);
}

/* How the in-place tree was found, and from where the script was taken to start. */
static void print_tree_why(const char *path, const struct src_file *clean, const struct sh_script *sh,
			   const struct hook_place *place, const struct hook_ctx *ctx)
{
	printf("%s: the build step at line %zu sees the operator directory as %s: %s", path,
	       src_file_line(clean, sh->cmds[place->build_cmd].start), place->dest, place->tree_why);
	if (place->from_start && ctx->start) {
		char *d = path_display(ctx->start->dir);
		printf(", %s (%s)", d, ctx->start->why);
		free(d);
	}
	putchar('\n');
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

static int do_install(const char *path, const struct src_file *f, const struct hook_ctx *ctx, bool allow_missing,
		      bool replace, bool dry_run, struct diag *diag)
{
	struct hook_found b;
	struct hook_place place;
	struct sh_script sh;
	struct src_file *clean;
	char *text, *block = NULL, *out, *replaced = NULL;
	size_t len, blen, rlen = 0;
	uint32_t cut_start = 0, cut_end = 0;
	int status = EXIT_BAD_INPUT;

	if (hook_find_block(f, &b, diag) != 0)
		return EXIT_BAD_INPUT;
	if (b.present && !b.ours && !replace) {
		diag_at(diag, DIAG_ERROR, src_loc_make(f, b.start_mark, b.start_mark + (uint32_t)strlen(HOOK_MARK_START)),
			"this hook block runs another preprocessor: remove it, or run 'autotrace hook install --replace' to "
			"have autotrace's block take its place (it keeps the old block, commented, for 'hook remove')");
		return EXIT_BAD_INPUT;
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
	if (len == f->len && memcmp(out, f->data, len) == 0) {
		printf("%s: the G1 hook is already installed %s line %zu\n", path, place.in_place ? "before" : "after",
		       src_file_line(clean, sh.cmds[place.in_place ? place.build_cmd : place.copy_cmd].start));
		status = EXIT_OK;
	} else if (write_or_show(path, f, out, len, dry_run, diag) == 0) {
		if (!dry_run) {
			size_t block_lines = 0;
			for (const char *q = block; *q; q++)
				block_lines += *q == '\n';
			if (place.in_place && place.tree_why)
				print_tree_why(path, clean, &sh, &place, ctx);
			if (place.in_place)
				printf("%s: %s the G1 hook before the build step at line %zu (it preprocesses %s%s in place "
				       "and puts the sources back when the script ends)%s\n",
				       path, b.present ? "moved" : "installed", src_file_line(clean, sh.cmds[place.build_cmd].start),
				       place.dest, place.nalso ? ", and the other operators' trees it already preprocessed," : "",
				       replaced ? "; the old preprocessor call is kept in it, commented" : "");
			else
				printf("%s: %s the G1 hook after line %zu (copy into %s), before the build step at line %zu%s\n",
				       path, b.present ? "moved" : "installed", src_file_line(clean, sh.cmds[place.copy_cmd].start),
				       place.dest, src_file_line(clean, sh.cmds[place.build_cmd].start) + block_lines,
				       replaced ? "; the old preprocessor call is kept in it, commented" : "");
		}
		status = EXIT_OK;
	}
	free(out);
	hook_place_release(&place);
out:
	free(block);
	free(replaced);
	sh_script_release(&sh);
	src_file_free(clean);
	return status;
}

static int do_remove(const char *path, const struct src_file *f, bool dry_run, struct diag *diag)
{
	struct hook_found b;
	char *text;
	size_t len;
	int rc;

	if (hook_find_block(f, &b, diag) != 0)
		return EXIT_BAD_INPUT;
	if (!b.present) {
		printf("%s: no G1 hook block to remove\n", path);
		return EXIT_OK;
	}
	text = hook_text_without(f, &b, &len);
	rc = write_or_show(path, f, text, len, dry_run, diag);
	if (rc == 0 && !dry_run)
		printf("%s: removed the G1 hook (lines %zu-%zu)\n", path, src_file_line(f, b.start),
		       src_file_line(f, b.end ? b.end - 1 : 0));
	free(text);
	return rc == 0 ? EXIT_OK : EXIT_BAD_INPUT;
}

int cmd_hook(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "script", required_argument, NULL, 's' }, { "rules", required_argument, NULL, 'r' },
		{ "after", required_argument, NULL, 'a' },  { "before", required_argument, NULL, 'b' },
		{ "allow-missing", no_argument, NULL, 'm' }, { "dry-run", no_argument, NULL, 'n' },
		{ "replace", no_argument, NULL, 'R' },      { "tree", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	const char *script = NULL, *rules = NULL, *after_s = NULL, *before_s = NULL, *action, *opdir = ".";
	bool allow_missing = false, dry_run = false, replace = false;
	const char *tree = NULL;
	struct hook_setup hs;
	struct hook_invocation inv;
	bool have_setup = false;
	struct rule_policy *p = NULL;
	struct rule_regex *after = NULL, *before = NULL;
	struct src_file *after_src = NULL, *before_src = NULL, *f = NULL;
	char *path = NULL;
	int c, status = EXIT_BAD_INPUT;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's': script = optarg; break;
		case 'r': rules = optarg; break;
		case 'a': after_s = optarg; break;
		case 'b': before_s = optarg; break;
		case 'm': allow_missing = true; break;
		case 'n': dry_run = true; break;
		case 'R': replace = true; break;
		case 't':
			tree = optarg;
			if (hook_tree_option(tree, diag) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	action = argv[optind++];
	if (optind < argc)
		opdir = argv[optind++];
	if (optind < argc) {
		diag_plain(diag, DIAG_ERROR, "hook: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(action, "install") != 0 && strcmp(action, "verify") != 0 && strcmp(action, "remove") != 0) {
		diag_plain(diag, DIAG_ERROR, "hook: unknown action '%s' (expected install, verify or remove)", action);
		return EXIT_BAD_INPUT;
	}
	p = rule_find_and_load(rules, opdir, diag);
	if (!p)
		goto out;
	after = after_s ? cli_regex("--after", after_s, &after_src, diag) : NULL;
	before = before_s ? cli_regex("--before", before_s, &before_src, diag) : NULL;
	if ((after_s && !after) || (before_s && !before))
		goto out;
	path = find_script(script, opdir, p, diag);
	if (!path)
		goto out;
	f = src_file_load(path);
	if (!f) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read the build script: %s", strerror(errno));
		goto out;
	}
	inv.rules = rules;
	inv.script = path;
	inv.tree = tree;
	inv.opdir = opdir;
	if (hook_setup_init(&hs, &inv, p, diag) != 0)
		goto out;
	have_setup = true;
	hs.ctx.after = after ? after : p->hook_after;
	hs.ctx.before = before ? before : p->hook_before;
	if (strcmp(action, "install") == 0) {
		hs.ctx.installing = true;
		status = do_install(path, f, &hs.ctx, allow_missing, replace, dry_run, diag);
	} else if (strcmp(action, "remove") == 0) {
		status = do_remove(path, f, dry_run, diag);
	} else {
		int n = hook_verify(f, &hs.ctx, diag);
		if (n < 0)
			status = EXIT_BAD_INPUT;
		else if (n > 0)
			status = EXIT_FINDINGS;
		else {
			printf("%s: G1 hook ok\n", path);
			status = EXIT_OK;
		}
	}
out:
	if (have_setup)
		hook_setup_release(&hs);
	src_file_free(f);
	free(path);
	rule_regex_free(after);
	rule_regex_free(before);
	src_file_free(after_src);
	src_file_free(before_src);
	rule_policy_free(p);
	return status;
}
