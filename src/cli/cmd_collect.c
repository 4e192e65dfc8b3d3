/* autotrace collect: rank dumps + point_map.json -> a Chrome trace JSON or a
 * Perfetto protobuf trace, with filters and an accounting of every record. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect_file.h"
#include "commands.h"
#include "exit_status.h"
#include "rule_find.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace collect [options] DUMP...\n"
	      "\n"
	      "Turn profiling dumps (rank000.pt, ..., .npy, raw .bin, or directories of\n"
	      "rank*.{pt,npy,bin}) and the point_map.json of the same build into a trace.\n"
	      "\n"
	      "  -m, --map FILE         point map (default: point_map.json in the dump\n"
	      "                         directory, else in the current directory)\n"
	      "  -o, --output FILE      output file, '-' for stdout (default trace.json,\n"
	      "                         or trace.perfetto-trace with --format perfetto);\n"
	      "                         written to a temporary file and renamed\n"
	      "  -f, --format FMT       chrome (Trace Event JSON, default) or perfetto\n"
	      "                         (native protobuf, about a third of the size)\n"
	      "      --rules FILE       rules file (layout, clock, cores, slot size)\n"
	      "      --depth N          keep only the N nesting levels nearest the root\n"
	      "      --rank LIST        ranks to keep, e.g. 0,2,4-7\n"
	      "      --core LIST        cores to keep: aic, aiv, aic3, aiv3 (both\n"
	      "                         sub-blocks), aiv3.1\n"
	      "      --label REGEX      keep slices whose label matches (PCRE2)\n"
	      "      --align MODE       rank-start (default): t = 0 at each rank's earliest\n"
	      "                         kernel-entry cycle; absolute: raw cycles, for\n"
	      "                         devices that share one clock\n"
	      "      --compress[=LEVEL] with -f perfetto: the packets deflated in chunks\n"
	      "                         (TracePacket.compressed_packets, which Perfetto\n"
	      "                         reads) at zlib LEVEL 1 (default, the fastest) to\n"
	      "                         9; on the 16-rank benchmark 7.4 bytes a slice\n"
	      "                         instead of 31 at level 1, 5.8 at level 6 for\n"
	      "                         four times the time, 5.2 at 9 for 30-40 times\n"
	      "      --json-events E    x (default): one complete event per slice;\n"
	      "                         be: a B and an E event per slice\n"
	      "      --whole-index      the record's bits 32-63 are one index (the\n"
	      "                         two-argument MoeTracing), not extra + index\n"
	      "      --ignore-stamp     decode dumps of another build anyway (a build stamp\n"
	      "                         that differs, or over 5% of ids unmapped in a\n"
	      "                         layout without a stamp, moe-v1)\n"
	      "  -q, --quiet            no summary or per-record warnings\n"
	      "  -h, --help             this help\n"
	      "\n"
	      "Time: the cores of one rank share a clock, so each rank has one time axis;\n"
	      "with rank-start alignment all ranks start at their common entry point (the\n"
	      "start synchronisation of the runtime). Clock rate from the rules (`clock`).\n"
	      "Records: an E closes the open B of its label with the same index and extra\n"
	      "(paired by label, and reported, when they differ); unmatched B are closed at\n"
	      "the slot's last record and marked unclosed; unmatched E are reported and\n"
	      "dropped; a cycle out of its core's order is placed at the time of the record\n"
	      "before (bad_cycles); ids not in the map are counted as skipped_no_mapping\n"
	      "(over 5% in a layout without a build stamp, moe-v1: a map of another build,\n"
	      "an error). The counts go to stderr. Filters that select nothing are errors.\n"
	      "A killed run's partial trace is removed by the next run to the same output.\n"
	      "Exit status: 0 written, 2 bad input (corrupt dumps, a map of another build,\n"
	      "filters that keep nothing, -o naming an input, an unwritable output),\n"
	      "3 internal error.\n",
	      out);
}

int cmd_collect(int argc, char **argv, struct diag *diag)
{
	enum { O_RULES = 256, O_DEPTH, O_RANK, O_CORE, O_LABEL, O_ALIGN, O_WHOLE, O_IGNORE, O_EVENTS, O_COMPRESS };
	static const struct option opts[] = {
		{ "map", required_argument, NULL, 'm' },    { "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' }, { "rules", required_argument, NULL, O_RULES },
		{ "depth", required_argument, NULL, O_DEPTH }, { "rank", required_argument, NULL, O_RANK },
		{ "core", required_argument, NULL, O_CORE }, { "label", required_argument, NULL, O_LABEL },
		{ "align", required_argument, NULL, O_ALIGN }, { "whole-index", no_argument, NULL, O_WHOLE },
		{ "json-events", required_argument, NULL, O_EVENTS }, { "compress", optional_argument, NULL, O_COMPRESS },
		{ "ignore-stamp", no_argument, NULL, O_IGNORE }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 }
	};
	struct collect_opts o;
	struct collect_file_opts fo;
	struct collect_file_result r;
	const char *map_path = NULL, *out_path = NULL, *rules_path = NULL, *label = NULL;
	const struct trace_ops *ops = &trace_chrome_ops;
	pcre2_code *re = NULL;
	bool be = false, compress = false;
	int c, status = EXIT_BAD_INPUT;

	memset(&r, 0, sizeof(r));
	memset(&fo, 0, sizeof(fo));
	memset(&o, 0, sizeof(o));
	optind = 1;
	while ((c = getopt_long(argc, argv, "m:o:f:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			map_path = optarg;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "chrome") == 0 || strcmp(optarg, "json") == 0) {
				ops = &trace_chrome_ops;
			} else if (strcmp(optarg, "perfetto") == 0 || strcmp(optarg, "proto") == 0) {
				ops = &trace_perfetto_ops;
			} else {
				diag_plain(diag, DIAG_ERROR, "--format: '%s' is neither 'chrome' nor 'perfetto'", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case O_RULES:
			rules_path = optarg;
			break;
		case O_DEPTH: {
			char *end;
			long d = strtol(optarg, &end, 10);
			if (*end || d < 1 || d > 1000) {
				diag_plain(diag, DIAG_ERROR, "--depth: expected a level from 1, found '%s'", optarg);
				return EXIT_BAD_INPUT;
			}
			o.depth = (int)d;
			break;
		}
		case O_RANK:
			if (!collect_rank_spec_valid(optarg)) {
				diag_plain(diag, DIAG_ERROR, "--rank: expected a list like 0,2,4-7, found '%s'", optarg);
				return EXIT_BAD_INPUT;
			}
			o.ranks = optarg;
			break;
		case O_CORE: {
			char bad[64];
			if (!collect_core_spec_valid(optarg, bad, sizeof(bad))) {
				diag_plain(diag, DIAG_ERROR,
					   "--core: '%s' is not a core: aic, aiv, aicN, aivN (both sub-blocks) or aivN.M, "
					   "separated by commas",
					   bad);
				return EXIT_BAD_INPUT;
			}
			o.cores = optarg;
			break;
		}
		case O_LABEL:
			label = optarg;
			break;
		case O_ALIGN:
			if (strcmp(optarg, "rank-start") == 0) {
				o.align = COLLECT_ALIGN_RANK_START;
			} else if (strcmp(optarg, "absolute") == 0) {
				o.align = COLLECT_ALIGN_ABSOLUTE;
			} else {
				diag_plain(diag, DIAG_ERROR, "--align: '%s' is neither 'rank-start' nor 'absolute'", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case O_WHOLE:
			o.whole_index = true;
			break;
		case O_EVENTS:
			if (strcmp(optarg, "x") == 0) {
				be = false;
			} else if (strcmp(optarg, "be") == 0) {
				be = true;
			} else {
				diag_plain(diag, DIAG_ERROR, "--json-events: '%s' is neither 'x' nor 'be'", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case O_IGNORE:
			o.ignore_stamp = true;
			break;
		case O_COMPRESS:
			compress = true;
			if (optarg) {
				char *end;
				long level = strtol(optarg, &end, 10);
				if (!*optarg || *end || level < 1 || level > 9) {
					diag_plain(diag, DIAG_ERROR, "--compress: expected a zlib level from 1 to 9, found '%s'",
						   optarg);
					return EXIT_BAD_INPUT;
				}
				o.compress_level = (int)level;
			}
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind >= argc) {
		diag_plain(diag, DIAG_ERROR, "collect: no dump given (rank000.pt ..., or their directory)");
		return EXIT_BAD_INPUT;
	}
	if (label) {
		int err;
		PCRE2_SIZE off;
		re = pcre2_compile((PCRE2_SPTR)label, PCRE2_ZERO_TERMINATED, PCRE2_UTF, &err, &off, NULL);
		if (!re) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(err, msg, sizeof(msg));
			diag_plain(diag, DIAG_ERROR, "--label: %s at offset %zu of '%s'", (char *)msg, (size_t)off, label);
			return EXIT_BAD_INPUT;
		}
		o.label_re = re;
		o.label = label;
	}
	if (be && ops == &trace_chrome_ops)
		ops = &trace_chrome_be_ops;
	if (compress) {
		if (ops != &trace_perfetto_ops) {
			diag_plain(diag, DIAG_ERROR, "--compress goes with -f perfetto (JSON viewers read no compressed form)");
			goto out;
		}
		ops = &trace_perfetto_z_ops;
	}
	fo.dumps = argv + optind;
	fo.ndumps = (size_t)(argc - optind);
	fo.map_path = map_path;
	fo.rules_path = rules_path;
	fo.out_path = out_path;
	fo.ops = ops;
	fo.run = o;
	fo.run.progress = !o.quiet && isatty(fileno(stderr));
	if (collect_file(&fo, &r, diag) != 0)
		goto out;
	if (!o.quiet) {
		collect_counts_print(stderr, &r.counts);
		fprintf(stderr, "collect: wrote %s (%s, %llu bytes, %.1f bytes per record) in %.3f s, %.1f M records/s\n",
			r.out_path, ops->name, (unsigned long long)r.bytes,
			r.counts.mapped ? (double)r.bytes / (double)r.counts.mapped : 0.0, r.counts.seconds,
			r.counts.seconds > 0 ? (double)r.counts.records / r.counts.seconds / 1e6 : 0.0);
	}
	status = EXIT_OK;
out:
	collect_file_result_release(&r);
	pcre2_code_free(re);
	return status;
}
