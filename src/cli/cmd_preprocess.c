/* autotrace preprocess: TRACE_POINT labels -> ids in a build-tree copy of the
 * sources, and point_map.json (the work is in preprocess.c). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "exit_status.h"
#include "preprocess.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace preprocess SRC_TREE (--in-place | --out DIR | --dry-run)\n"
	      "                            [--map FILE] [--force] [--quiet]\n"
	      "\n"
	      "Rewrite every TRACE_POINT(\"label\", \"B\"|\"E\") in the code of the C/C++ sources\n"
	      "under SRC_TREE into its integer id, and the identifier TRACE_BUILD_STAMP into\n"
	      "the build stamp; write point_map.json (id -> label, event, event_id, file,\n"
	      "line, plus version, generator and build_stamp). Comments, string literals and\n"
	      "#define/#if lines are left alone. Run it on the build tree's copy of the\n"
	      "sources (the G1 hook does), never on the sources themselves.\n"
	      "\n"
	      "Ids are deterministic: files in bytewise order of their path relative to\n"
	      "SRC_TREE, then points in file order, from 1. The build stamp is a hash of the\n"
	      "points' files, positions, labels and events; the runtime records it, so a\n"
	      "dump can be matched with its map. A label continued with a backslash-newline\n"
	      "is the text the compiler sees (the lines joined, then the escapes read); a\n"
	      "point written over several lines becomes its id after as many line breaks,\n"
	      "so the lines after it keep their numbers.\n"
	      "\n"
	      "Malformed points (labels that are not two string literals, empty, not\n"
	      "UTF-8 or holding a NUL), and functions where a path leaves a B without its\n"
	      "E (the pairing check of 'autotrace check'), make it refuse: exit 1, nothing\n"
	      "written. A tree preprocessed already (MoeTracing(<number>) where a\n"
	      "TRACE_POINT was, or the build stamp a run wrote) is refused: exit 2;\n"
	      "preprocess a fresh copy. --in-place locks the tree (SRC_TREE/.autotrace/lock)\n"
	      "and journals the batch, all files or none: a rename that fails half-way\n"
	      "puts back the files replaced before it; after a kill the next run completes\n"
	      "or rolls back.\n"
	      "\n"
	      "  --in-place      rewrite the sources under SRC_TREE\n"
	      "  --out DIR       write a rewritten copy of the whole tree into DIR\n"
	      "  -n, --dry-run   report what would be done, write nothing\n"
	      "  --map FILE      where the map goes (default: SRC_TREE/point_map.json,\n"
	      "                  DIR/point_map.json with --out)\n"
	      "  --force         write even when the pairing check fails (it warns)\n"
	      "  -q, --quiet     no per-file counts, only the summary line\n"
	      "  -h, --help      this help\n"
	      "\n"
	      "Exit status: 0 done, 1 refused (malformed or unbalanced points), 2 bad usage\n"
	      "or input, 3 a write failed.\n",
	      out);
}

int cmd_preprocess(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },      { "map", required_argument, NULL, 'm' },
		{ "out", required_argument, NULL, 'o' }, { "in-place", no_argument, NULL, 'i' },
		{ "force", no_argument, NULL, 'f' },     { "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },     { NULL, 0, NULL, 0 },
	};
	struct pp_options o;
	struct pp_result res;
	int c;

	memset(&o, 0, sizeof(o));
	while ((c = getopt_long(argc, argv, "hm:o:fnq", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case 'm':
			o.map = optarg;
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'i':
			o.in_place = true;
			break;
		case 'f':
			o.force = true;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind + 1 != argc) {
		diag_plain(diag, DIAG_ERROR, "preprocess: %s", optind >= argc ? "SRC_TREE missing" : "one SRC_TREE only");
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	o.tree = argv[optind];
	if ((o.in_place ? 1 : 0) + (o.out ? 1 : 0) + (o.dry_run ? 1 : 0) != 1) {
		diag_plain(diag, DIAG_ERROR, "preprocess: say where the result goes: one of --in-place, --out DIR, --dry-run");
		return EXIT_BAD_INPUT;
	}
	if (preprocess_run(&o, stdout, &res, diag) == 0)
		return EXIT_OK;
	return res.findings ? EXIT_FINDINGS : EXIT_BAD_INPUT;
}
