/* autotrace hook install|verify|remove: the G1 preprocessor hook in the build script. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "hook_run.h"
#include "udiff.h"

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

static void print_install_to(FILE *out, const struct hook_session *s, const struct hook_install_result *r);

struct install_shown {
	const struct hook_session *s;
	const struct hook_install_result *r;
};

static void render_install(FILE *out, const void *ctx)
{
	const struct install_shown *x = ctx;

	print_install_to(out, x->s, x->r);
}

/* What install did, its paths (the tree's) shown with control characters
 * escaped. */
static void print_install(const struct hook_session *s, const struct hook_install_result *r)
{
	struct install_shown x = { s, r };

	diag_put_rendered(stdout, render_install, &x);
}

static void print_install_to(FILE *out, const struct hook_session *s, const struct hook_install_result *r)
{
	const char *path = s->script, *kept = "; the old preprocessor call is kept in it, commented";

	if (r->done == HOOK_ALREADY) {
		fprintf(out, "%s: the G1 hook is already installed %s line %zu\n", path, r->in_place ? "before" : "after",
		       r->in_place ? r->build_line : r->copy_line);
		return;
	}
	if (r->tree_why) {
		/* how the in-place tree was found, and from where the script was taken to start */
		fprintf(out, "%s: the build step at line %zu sees the operator directory as %s: %s", path, r->build_line, r->dest,
		       r->tree_why);
		if (r->start_dir)
			fprintf(out, ", %s (%s)", r->start_dir, r->start_why);
		fputc('\n', out);
	}
	if (r->in_place)
		fprintf(out, "%s: %s the G1 hook before the build step at line %zu (it preprocesses %s%s in place "
		       "and puts the sources back when the script ends)%s\n",
		       path, r->done == HOOK_MOVED ? "moved" : "installed", r->build_line, r->dest,
		       r->others_kept ? ", and the other operators' trees it already preprocessed," : "", r->replaced ? kept : "");
	else
		fprintf(out, "%s: %s the G1 hook after line %zu (copy into %s), before the build step at line %zu%s\n", path,
		       r->done == HOOK_MOVED ? "moved" : "installed", r->copy_line, r->dest, r->build_line,
		       r->replaced ? kept : "");
}

static int install(struct hook_session *s, const struct hook_opts *o, struct diag *diag)
{
	struct hook_install_result r;
	int rc = hook_install_run(s, o, &r, diag);

	if (rc == 0 && o->dry_run && r.done != HOOK_ALREADY)
		udiff_print(stdout, s->script, s->file->data, s->file->len, r.text, r.len);
	else if (rc == 0)
		print_install(s, &r);
	hook_install_result_release(&r);
	return rc == 0 ? EXIT_OK : EXIT_BAD_INPUT;
}

static int remove_block(struct hook_session *s, const struct hook_opts *o, struct diag *diag)
{
	struct hook_remove_result r;
	int rc = hook_remove_run(s, o, &r, diag);

	if (rc == 0 && !r.present)
		printf("%s: no G1 hook block to remove\n", s->script);
	else if (rc == 0 && o->dry_run)
		udiff_print(stdout, s->script, s->file->data, s->file->len, r.text, r.len);
	else if (rc == 0)
		printf("%s: removed the G1 hook (lines %zu-%zu)\n", s->script, r.first_line, r.last_line);
	hook_remove_result_release(&r);
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
	const char *action;
	struct hook_opts o;
	struct hook_session hs;
	int c, status = EXIT_BAD_INPUT;

	memset(&o, 0, sizeof(o));
	o.opdir = ".";
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's': o.script = optarg; break;
		case 'r': o.rules = optarg; break;
		case 'a': o.after = optarg; break;
		case 'b': o.before = optarg; break;
		case 'm': o.allow_missing = true; break;
		case 'n': o.dry_run = true; break;
		case 'R': o.replace = true; break;
		case 't':
			o.tree = optarg;
			if (hook_tree_option(o.tree, diag) != 0)
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
		o.opdir = argv[optind++];
	if (optind < argc) {
		diag_plain(diag, DIAG_ERROR, "hook: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(action, "install") != 0 && strcmp(action, "verify") != 0 && strcmp(action, "remove") != 0) {
		diag_plain(diag, DIAG_ERROR, "hook: unknown action '%s' (expected install, verify or remove)", action);
		return EXIT_BAD_INPUT;
	}
	if (hook_session_open(&hs, &o, diag) != 0)
		;
	else if (strcmp(action, "install") == 0)
		status = install(&hs, &o, diag);
	else if (strcmp(action, "remove") == 0)
		status = remove_block(&hs, &o, diag);
	else {
		int n = hook_verify(hs.file, &hs.setup.ctx, diag);
		if (n < 0)
			status = EXIT_BAD_INPUT;
		else if (n > 0)
			status = EXIT_FINDINGS;
		else {
			printf("%s: G1 hook ok\n", hs.script);
			status = EXIT_OK;
		}
	}
	hook_session_close(&hs);
	return status;
}
