/* autotrace instrument: wire, apply, hook install, check and the gates on one operator,
 * staged, written back together, with the closing report; --undo. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "edit_journal.h"
#include "exit_status.h"
#include "gate_run.h"
#include "hook_setup.h"
#include "instrument.h"
#include "opdirs.h"
#include "udiff.h"
#include "undo_journal.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace instrument [options] [OPDIR]\n"
	      "       autotrace instrument --undo [--op NAME] [--dry-run] [--force] [OPDIR]\n"
	      "\n"
	      "The whole job on one operator, in order:\n"
	      "  wire          profiling_data through every layer of the project\n"
	      "  apply         the trace points (and the runtime they need)\n"
	      "  hook install  the preprocessor hook in the team's build script\n"
	      "  check         the points checked statically\n"
	      "  gates         G1, G2, G4, G5 on the result: every one that runs must hold\n"
	      "Each step runs on a staging copy of the files it may touch; the first step\n"
	      "that cannot be done safely stops the job with nothing changed (exit 1 for\n"
	      "manual steps, check findings or a gate that does not hold, 2 for bad\n"
	      "input). A layer the project does not have (a torch binding, samples,\n"
	      "InferShape, a build script) is absent: said, with what its later owner\n"
	      "does, never a stop. A directory that holds no operator is refused (exit\n"
	      "2) with the operator directories below it. Then every changed file\n"
	      "is written together, the originals kept in OPDIR/.autotrace/" INSTRUMENT_UNDO_NAME "/,\n",
	      out);
	/* the gates as gate_list.h has them, first to last */
	fprintf(out, "and the closing report follows: %s-%s each satisfied or not, with the\n",
		gate_def((enum gate_id)0)->id, gate_def((enum gate_id)(GATE_COUNT - 1))->id);
	fputs("reason and the next step; the files changed; the point tree; the check\n"
	      "result; the layer-by-layer G2 alignment; where the hook is and where\n"
	      "point_map.json will be written; which samples synchronize and save; the\n"
	      "autotrace collect command line with this project's paths.\n"
	      "Running it again changes nothing.\n"
	      "\n"
	      "Options:\n"
	      "  --rules FILE    the rules file (default OPDIR/autotrace.rules, else moe.rules)\n"
	      "  --op NAME       the operator, in a directory that holds several (an OpDef\n"
	      "                  class name or its snake_case, or the rules' name \"NAME\";):\n"
	      "                  only its files and its parts of shared ones change (its\n"
	      "                  functions and registrations in a shared infer, aclnn or\n"
	      "                  binding source; the build script's one hook); without it\n"
	      "                  such a directory is refused with the list of its operators.\n"
	      "                  Its undo journal is its own, and undo goes last in, first\n"
	      "                  out: an operator instrumented after it is undone first\n"
	      "  --script FILE   the build script (default: the nearest one, see hook --help)\n"
	      "  --replace       let the hook take the place of another preprocessor's call\n"
	      "  --without LAYERS  binding, samples: layers outside this project (as wire\n"
	      "                  --without; default: the rules' 'without')\n"
	      "  --tree WORD     the tree the hook preprocesses, as the build script writes it\n"
	      "                  (see hook --help; default: the rules' 'gate { hook tree ...; }',\n"
	      "                  else found from the script, from where it starts)\n"
	      "  --dry-run       print every diff and the report, write nothing (no fsync)\n"
	      "  --format F      text (default) or json, for the report on standard output\n"
	      "  --undo          put back every file the last instrument changed, remove\n"
	      "                  those it created (refuses files edited since, unless --force)\n"
	      "  --force         with --undo\n"
	      "  -h, --help      this help\n"
	      "\n"
	      "Exit status: 0 done (or nothing to do) and every gate run holds, 1 stopped\n"
	      "at a step (manual steps, check findings, a gate not held), 2 bad usage or\n"
	      "input (not an operator directory).\n",
	      out);
}

static int emit_report(const cJSON *rep, bool json)
{
	int rc = 0;

	if (json) {
		char *t = cJSON_Print(rep);
		rc = t && fputs(t, stdout) >= 0 && fputc('\n', stdout) != EOF ? 0 : -1;
		free(t);
	} else {
		instrument_report_text(stdout, rep);
	}
	return fflush(stdout) == 0 ? rc : -1;
}

/* A dry run's diff of one file, as "diff" of its entry in the report's files. */
static void add_diff(cJSON *report, const struct instrument_change *c)
{
	cJSON *files = cJSON_GetObjectItemCaseSensitive(report, "files"), *f;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	udiff_print(m, c->path, c->orig ? c->orig->data : "", c->orig ? c->orig->len : 0, c->now->data, c->now->len);
	fclose(m);
	cJSON_ArrayForEach(f, files) {
		const char *p = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path"));
		if (p && strcmp(p, c->path) == 0) {
			cJSON_AddStringToObject(f, "diff", text ? text : "");
			break;
		}
	}
	free(text);
}

static int exit_of(enum instrument_stop s)
{
	switch (s) {
	case INSTRUMENT_STOP_NONE: return EXIT_OK;
	case INSTRUMENT_STOP_FINDINGS: return EXIT_FINDINGS;
	case INSTRUMENT_STOP_INPUT: return EXIT_BAD_INPUT;
	default: return EXIT_INTERNAL;
	}
}

static int run_instrument(const struct instrument_opts *o, bool json, struct diag *diag)
{
	struct instrument_outcome out;
	int status;

	if (instrument_run(o, &out, diag) != 0) {
		status = exit_of(out.stop == INSTRUMENT_STOP_NONE ? INSTRUMENT_STOP_INTERNAL : out.stop);
	} else {
		status = exit_of(out.stop);
		if (o->dry_run)
			for (size_t i = 0; i < out.nchanges; i++) {
				const struct instrument_change *c = &out.changes[i];
				if (json && out.report)
					add_diff(out.report, c); /* standard output holds one JSON document */
				else
					udiff_print(stdout, c->path, c->orig ? c->orig->data : "", c->orig ? c->orig->len : 0,
						    c->now->data, c->now->len);
			}
		if (out.report && emit_report(out.report, json) != 0)
			status = EXIT_INTERNAL;
	}
	instrument_outcome_release(&out);
	return status;
}

int cmd_instrument(int argc, char **argv, struct diag *diag)
{
	static const struct option longopts[] = {
		{ "rules", required_argument, NULL, 'r' },  { "script", required_argument, NULL, 's' },
		{ "replace", no_argument, NULL, 'R' },      { "dry-run", no_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' }, { "undo", no_argument, NULL, 'u' },
		{ "force", no_argument, NULL, 'F' },        { "tree", required_argument, NULL, 't' },
		{ "op", required_argument, NULL, 'o' },     { "help", no_argument, NULL, 'h' },
		{ "without", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct instrument_opts o;
	const char *opdir = ".";
	bool dry_run = false, undo = false, force = false, json = false;
	int c;

	memset(&o, 0, sizeof(o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o.rules = optarg; break;
		case 'o': o.op = optarg; break;
		case 'w': o.without = optarg; break;
		case 's': o.script = optarg; break;
		case 'R': o.replace = true; break;
		case 't':
			if (hook_tree_option(optarg, diag) != 0)
				return EXIT_BAD_INPUT;
			o.tree = optarg;
			break;
		case 'n': dry_run = true; break;
		case 'u': undo = true; break;
		case 'F': force = true; break;
		case 'f':
			if (strcmp(optarg, "json") == 0)
				json = true;
			else if (strcmp(optarg, "text") != 0) {
				diag_plain(diag, DIAG_ERROR, "instrument: unknown format '%s' (text or json)", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default:
			diag_plain(diag, DIAG_ERROR, "instrument: unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind > 1) {
		diag_plain(diag, DIAG_ERROR, "instrument: one operator directory expected");
		return EXIT_BAD_INPUT;
	}
	if (optind < argc)
		opdir = argv[optind];
	if (force && !undo) {
		diag_plain(diag, DIAG_ERROR, "instrument: --force goes with --undo");
		return EXIT_BAD_INPUT;
	}
	{
		/* the real operator directory is locked before it is read, for the
		 * whole run (edit_journal.h): the steps work on a staging copy, and
		 * the files written back at the end go through its journal */
		struct edit_lock *lock = NULL;
		struct stat st;
		char *top = NULL;
		int status;
		/* the project around it is the tree the lock's batches (and undo) may
		 * change: the files written back lie there */
		if (stat(opdir, &st) == 0 && S_ISDIR(st.st_mode) && !(top = opdirs_project_top(opdir, o.rules, diag)))
			return EXIT_BAD_INPUT;
		if (!dry_run && top &&
		    !(lock = edit_lock_acquire_within(opdir, top, undo ? "instrument --undo" : "instrument", diag))) {
			free(top);
			return EXIT_BAD_INPUT;
		}
		if (undo) {
			char *journal;
			status = opdirs_journal(opdir, o.rules, o.op, INSTRUMENT_UNDO_NAME, &journal, diag) == 0
					 ? (undo_journal_restore(opdir, top, journal, "instrument", dry_run, force, diag) == 0
						    ? EXIT_OK
						    : EXIT_BAD_INPUT)
					 : EXIT_BAD_INPUT;
			free(journal);
		} else {
			o.opdir = opdir;
			o.dry_run = dry_run;
			status = run_instrument(&o, json, diag);
		}
		edit_lock_release(lock);
		free(top);
		return status;
	}
}
