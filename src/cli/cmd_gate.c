/* autotrace gate: the gates of gate_list.h (each one condition of an
 * instrumented operator being done) over an operator project, for CI. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "gate_out.h"
#include "project_model.h"
#include "gate_run.h"
#include "hook_setup.h"
#include "wire_fixes.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace gate [options] [OPDIR]\n"
	      "\n"
	      "Checks the gates of an instrumented operator project (default OPDIR: .):\n",
	      out);
	gate_print_help(out);
	fputs("The binding, aclnn sources, samples and build script are looked for in\n"
	      "OPDIR, else under the project root (see wire --help); one not found is a\n"
	      "finding (G2 for the binding, G5 for the samples), never a pass. Every\n"
	      "result has a location (in SARIF too): its own line, else the operator's\n"
	      "rules file, OpDef or kernel entry.\n"
	      "\n"
	      "Options:\n"
	      "  --rules FILE       the rules (default: OPDIR/autotrace.rules, else the shipped moe.rules)\n"
	      "  --op NAME          the operator, in a directory that holds several (an OpDef\n"
	      "                     class name or its snake_case, or the rules' name \"NAME\";):\n"
	      "                     its OpDef, infer, kernel entry, aclnn, binding and samples\n"
	      "                     are checked; without it such a directory is refused with\n"
	      "                     the list of its operators (exit 2)\n"
	      "  --only LIST        run only these gates (G1,G2,...); the others are skipped\n"
	      "  --skip LIST        skip these gates (shown as skipped, never as passed)\n"
	      "  --format FORMAT    text (default), json, sarif (2.1.0) or junit\n"
	      "                     (SARIF: URIs relative to the project root,\n"
	      "                     uriBaseId %SRCROOT%; JUnit: Jenkins' schema)\n"
	      "  --script FILE      G1: the build script (default: the nearest match of the\n"
	      "                     rules' 'build' patterns up to the project root)\n"
	      "  --point-map FILE   G1: check this map's build stamp (default: every\n"
	      "                     point_map.json under OPDIR)\n"
	      "  --without LAYERS   binding, samples: layers outside this project (an operator\n"
	      "                     library whose torch binding lives elsewhere; default: the\n"
	      "                     rules' 'without'): G2 says the binding was left out, G4\n"
	      "                     and G5 are skipped, never passed\n"
	      "  --tree WORD        G1: the tree the hook preprocesses, as the build script\n"
	      "                     writes it (default: the rules' 'gate { hook tree \"WORD\"; }',\n"
	      "                     else found from the script: see hook --help)\n"
	      "  --build-cmd CMD    G3: the build command, run by /bin/sh in OPDIR\n"
	      "  --build-log FILE   G3: keep the build's output here (default: a new\n"
	      "                     $TMPDIR/autotrace-gate-G3-XXXXXX file; its path is printed)\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "Text output: findings as FILE:LINE:COL: error: [RULE] message, the line, a\n"
	      "caret, 'hint:' (how to fix it, in words) and, where a command fixes it,\n"
	      "'fix:' (run it as printed, from this directory: a finding wire would fix\n"
	      "gets 'autotrace wire ... OPDIR'), on stderr; one line per gate and the\n"
	      "verdict on stdout.\n"
	      "json, sarif and junit go to stdout.\n"
	      "Exit status: 0 every gate that ran passed, 1 a gate failed, 2 bad usage or input.\n",
	      out);
}

/* "G1,g3" -> flags; -1 after reporting a bad name. */
static int parse_gates(const char *list, bool set[GATE_COUNT], struct diag *diag)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;

	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		int g = gate_find(tok);
		if (g < 0) {
			diag_plain(diag, DIAG_ERROR, "gate: unknown gate '%s' (gates: %s)", tok, gate_ids_text());
			rc = -1;
			break;
		}
		set[g] = true;
	}
	free(copy);
	return rc;
}

int cmd_gate(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "rules", required_argument, NULL, 'r' },     { "only", required_argument, NULL, 'o' },
		{ "skip", required_argument, NULL, 's' },      { "format", required_argument, NULL, 'f' },
		{ "script", required_argument, NULL, 'S' },    { "point-map", required_argument, NULL, 'm' },
		{ "build-cmd", required_argument, NULL, 'b' }, { "build-log", required_argument, NULL, 'l' },
		{ "op", required_argument, NULL, 'O' },        { "tree", required_argument, NULL, 't' },
		{ "without", required_argument, NULL, 'w' },   { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct project_opts go;
	bool only[GATE_COUNT] = { false }, skip[GATE_COUNT] = { false }, run[GATE_COUNT], any_only = false;
	const struct gate_format *fmt = gate_format_find("text");
	struct project_model *p = NULL;
	struct gate_report *r = NULL;
	int c, status = EXIT_BAD_INPUT;

	memset(&go, 0, sizeof(go));
	go.opdir = ".";
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': go.rules = optarg; break;
		case 'O': go.op = optarg; break;
		case 'w': go.without = optarg; break;
		case 'S': go.script = optarg; break;
		case 'm': go.point_map = optarg; break;
		case 'b': go.build_cmd = optarg; break;
		case 'l': go.build_log = optarg; break;
		case 't':
			if (hook_tree_option(optarg, diag) != 0)
				return EXIT_BAD_INPUT;
			go.tree = optarg;
			break;
		case 'o':
			if (parse_gates(optarg, only, diag) != 0)
				return EXIT_BAD_INPUT;
			any_only = true;
			break;
		case 's':
			if (parse_gates(optarg, skip, diag) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 'f':
			fmt = gate_format_find(optarg);
			if (!fmt) {
				diag_plain(diag, DIAG_ERROR, "gate: unknown format '%s' (text, json, sarif or junit)", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 'h': usage(stdout); return EXIT_OK;
		default: usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind < argc)
		go.opdir = argv[optind++];
	if (optind < argc) {
		diag_plain(diag, DIAG_ERROR, "gate: unexpected argument '%s'", argv[optind]);
		return EXIT_BAD_INPUT;
	}
	for (int g = 0; g < GATE_COUNT; g++)
		run[g] = (!any_only || only[g]) && !skip[g];

	p = project_load(&go, diag);
	if (!p)
		goto out;
	r = gate_report_new(go.opdir);
	gate_report_set_anchor(r, project_anchor(p));
	gate_report_set_root(r, p->root.abs);
	for (int g = 0; g < GATE_COUNT; g++) {
		r->gates[g].run = run[g];
		if (!run[g]) {
			char note[32];
			snprintf(note, sizeof(note), skip[g] ? "--skip %s" : "not in --only", gate_name((enum gate_id)g));
			r->gates[g].note = xstrdup(note);
		}
	}
	gate_run(p, r);
	wire_offer_fixes(r, &go);
	if (fmt->write(stdout, stderr, diag->color, r) != 0) {
		diag_plain(diag, DIAG_ERROR, "gate: cannot write the report");
		status = EXIT_INTERNAL;
		goto out;
	}
	status = gate_report_passed(r) ? EXIT_OK : EXIT_FINDINGS;
out:
	gate_report_free(r);
	project_free(p);
	return status;
}
