/* autotrace wire: thread the profiling output through an operator project
 * (host OpDef, InferShape, aclnn, binding, kernel entry, sample scripts:
 * what gates G2, G4 and G5 check), idempotently, with --dry-run and --undo. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "edit_journal.h"
#include "exit_status.h"
#include "project_model.h"
#include "opdirs.h"
#include "path_glob.h"
#include "udiff.h"
#include "wire.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace wire [--rules FILE] [--op NAME] [--dry-run] [--undo [--force]] [OPDIR]\n"
	      "\n"
	      "Makes every edit that gates G2, G4 and G5 require, so that the profiling\n"
	      "output (the rules' 'profiling' name, REQUIRED = mode B, OPTIONAL = mode A)\n"
	      "is the last tensor output in every layer of the operator project:\n"
	      "  OpDef     this->Output(\"profiling_data\") last, INT64, in the file's chain style\n"
	      "  infer     its shape {MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP *\n"
	      "            PROF_SIZE_PER_CORE} (1-D) and ge::DT_INT64, set unconditionally\n"
	      "  kernel    GM_ADDR profilingData in the __global__ entry and in the class Init\n"
	      "            (declaration and definition, after the outputs, typed like the\n"
	      "            GM parameters), every Init call (each tiling-key branch, macros\n"
	      "            too), MOE_TRACING_KERNEL_BEGIN / MoeTracingKernelEnd in the entry,\n"
	      "            the runtime embedded in the base header the entry includes\n"
	      "            (AUTOTRACE-RUNTIME markers; <kernel>_base.h created if none)\n"
	      "  aclnn     the hand-written aclnn*GetWorkspaceSize declarations, definitions\n"
	      "            and their forwarding calls (aclnnInner* too), in the file's types;\n"
	      "            a call of aclnnInner<Op>GetWorkspaceSize that nothing declares is\n"
	      "            checked against the declaration the build generates from the\n"
	      "            OpDef (inputs, attributes, outputs, workspaceSize, executor)\n"
	      "  pybind    every binding function of the op (meta functions too): the\n"
	      "            tensor allocated at the top and passed to every EXEC_NPU_CMD of\n"
	      "            the op, returned last (mode B), or an optional argument and\n"
	      "            'Tensor? profiling_data=None' in the schema (mode A); a binding\n"
	      "            returning what X::apply gives (a torch::autograd::Function): in\n"
	      "            X::forward, returned last and marked non-differentiable\n"
	      "  samples   the result unpacked by len(outs), synchronize then\n"
	      "            save_profiling_data with the rank in reach (parameters, locals,\n"
	      "            self, enclosing functions, options, globals: rank, rank_id,\n"
	      "            global_rank_id, local_rank, ...; dist.get_rank(), RANK; then\n"
	      "            torch.distributed when the script initialises it),\n"
	      "            --profiling_dir / --point_map / --chrome_trace\n"
	      "            (or AUTOTRACE_PROFILING_DIR / _POINT_MAP / _CHROME_TRACE in tests\n"
	      "            without options) resolved before the spawn, collect after the join\n"
	      "  launch    a host function that launches the kernel itself (no aclnn API,\n"
	      "            no EXEC_NPU_CMD): ACLRT_LAUNCH_KERNEL(k)(...), k<<<...>>>(...),\n"
	      "            EXEC_KERNEL_CMD or a macro of the project that expands to one;\n"
	      "            the tensor allocated there, passed where the kernel takes it,\n"
	      "            returned last (void -> at::Tensor, Tensor -> std::tuple, tuple\n"
	      "            + 1), its declarations, the schema of its torch.ops name (one\n"
	      "            more Tensor), a lambda registered for it; the OpDef, infer and\n"
	      "            aclnn layers are not edited (mode B)\n"
	      "The aclnn sources, binding, samples and build script are looked for in\n"
	      "OPDIR, else under the project root (the rules' 'project', else the git top\n"
	      "level, else the nearest directory upwards with a build script), and kept\n"
	      "when they name the operator; a layer not found is a manual step. The\n"
	      "rules' 'profiling ... auto' (the default) picks mode A when the binding\n"
	      "returns tensors its caller passed, else mode B.\n"
	      "In a directory that holds several operators (one OpDef class and one\n"
	      "op_kernel/<snake_case>.cpp entry each), --op NAME (the class name or its\n"
	      "snake_case, or the rules' name \"NAME\";) says which: only its OpDef, its\n"
	      "functions and registrations in a shared infer, aclnn or binding source,\n"
	      "its kernel entry and base header, and its samples are edited; without it\n"
	      "the operators are listed (exit 2). Its journal is\n"
	      "OPDIR/.autotrace/" WIRE_UNDO_NAME ".<snake_case>/.\n"
	      "Running it again changes nothing. Every edit is listed; a step it cannot do\n"
	      "safely is reported as 'manual step: ...' and the exit status is 1.\n"
	      "\n"
	      "Before writing, the original bytes of every file it changes are kept in\n"
	      "OPDIR/.autotrace/" WIRE_UNDO_NAME "/ (N.orig, N.wired = what wire wrote, MANIFEST;\n"
	      "ignored by git); --undo restores them byte for byte and removes the\n"
	      "journal. A file edited since wire wrote it stops --undo (exit 2, nothing\n"
	      "restored) unless --force is given; --undo --dry-run shows what would go.\n"
	      "\n"
	      "Options:\n"
	      "  --rules FILE   the rules file (default OPDIR/autotrace.rules, else moe.rules)\n"
	      "  --op NAME      the operator, in a directory that holds several\n"
	      "  --without LAYERS  binding, samples: layers outside this project (its torch\n"
	      "                 binding lives elsewhere; default: the rules' 'without'): not\n"
	      "                 looked for, no manual step for them, a note of what their\n"
	      "                 side must do\n"
	      "  --dry-run      print the changes as a unified diff, write nothing\n"
	      "  --undo         restore the files of the last wire (with --dry-run: show it)\n"
	      "  --force        with --undo: restore even files edited since wire wrote them\n"
	      "  -h, --help     this help\n"
	      "\n"
	      "Exit status: 0 done (or nothing to do), 1 manual steps left, 2 bad usage or input.\n",
	      out);
}

static int run_wire(const struct wire_run_opts *o, struct diag *diag)
{
	struct wire_run_result r;
	int status = EXIT_OK;

	if (wire_run(o, &r, diag) != 0) {
		status = r.internal ? EXIT_INTERNAL : EXIT_BAD_INPUT;
		goto out;
	}
	if (o->dry_run)
		for (size_t i = 0; i < r.nfiles; i++)
			udiff_print(stdout, r.files[i].wf->f->path, r.files[i].wf->f->data, r.files[i].wf->f->len,
				    r.files[i].text, r.files[i].len);
	for (size_t i = 0; i < r.nfiles; i++)
		for (size_t k = 0; k < r.files[i].wf->n; k++)
		{
			/* a file name of the tree never drives the terminal */
			diag_put_str(stdout, r.files[i].wf->f->path);
			printf(":%zu: ", wire_edit_line(&r.files[i], k));
			diag_put_str(stdout, r.files[i].wf->v[k].what);
			putchar('\n');
		}
	if (r.nfiles == 0)
		printf("wire: nothing to change in %s\n", o->opdir);
	else
		printf("wire: %s%zu edit%s in %zu file%s (mode %s, '%s' last)%s%s%s\n", o->dry_run ? "would make " : "",
		       r.nedits, r.nedits == 1 ? "" : "s", r.nfiles, r.nfiles == 1 ? "" : "s", r.w.required ? "B" : "A",
		       r.w.prof, o->dry_run ? "" : "; undo with: autotrace wire --undo",
		       !o->dry_run && r.project->choice.journal ? " --op " : "",
		       !o->dry_run && r.project->choice.journal ? r.project->choice.journal : "");
	if (r.manual) {
		fprintf(stderr, "wire: %u manual step%s left (see above)\n", r.manual, r.manual == 1 ? "" : "s");
		status = EXIT_FINDINGS;
	}
out:
	wire_run_release(&r);
	return status;
}

int cmd_wire(int argc, char **argv, struct diag *diag)
{
	static const struct option longopts[] = {
		{ "rules", required_argument, NULL, 'r' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "undo", no_argument, NULL, 'u' },
		{ "force", no_argument, NULL, 'f' },
		{ "op", required_argument, NULL, 'o' },
		{ "without", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *rules = NULL, *opdir = ".", *op = NULL, *without = NULL;
	bool dry_run = false, undo = false, force = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rules = optarg;
			break;
		case 'o':
			op = optarg;
			break;
		case 'w':
			without = optarg;
			break;
		case 'n':
			dry_run = true;
			break;
		case 'u':
			undo = true;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			diag_plain(diag, DIAG_ERROR, "wire: unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind > 1) {
		diag_plain(diag, DIAG_ERROR, "wire: one operator directory expected");
		return EXIT_BAD_INPUT;
	}
	if (optind < argc)
		opdir = argv[optind];
	if (force && !undo) {
		diag_plain(diag, DIAG_ERROR, "wire: --force goes with --undo");
		return EXIT_BAD_INPUT;
	}
	{
		struct stat st;
		struct edit_lock *lock = NULL;
		char *top;
		int status;
		if (stat(opdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
			diag_plain(diag, DIAG_ERROR, "wire: %s is not a directory", opdir);
			return EXIT_BAD_INPUT;
		}
		/* the operator directory is locked before it is read (edit_journal.h):
		 * an interrupted run is completed first, a second one is refused; wire
		 * writes in the project around it, the tree the lock's batches (and
		 * undo) may change */
		if (!(top = opdirs_project_top(opdir, rules, diag)))
			return EXIT_BAD_INPUT;
		if (!dry_run && !(lock = edit_lock_acquire_within(opdir, top, undo ? "wire --undo" : "wire", diag))) {
			free(top);
			return EXIT_BAD_INPUT;
		}
		if (undo) {
			char *journal;
			status = opdirs_journal(opdir, rules, op, WIRE_UNDO_NAME, &journal, diag) == 0
					 ? (undo_journal_restore(opdir, top, journal, "wire", dry_run, force, diag) == 0
						    ? EXIT_OK
						    : EXIT_BAD_INPUT)
					 : EXIT_BAD_INPUT;
			free(journal);
		} else {
			struct wire_run_opts wo = { opdir, rules, op, without, dry_run };
			status = run_wire(&wo, diag);
		}
		edit_lock_release(lock);
		free(top);
		return status;
	}
}
