/* autotrace instrument: wire, apply, hook install and check on one operator,
 * staged, written back together, with the closing report; --undo. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "edit_journal.h"
#include "exit_status.h"
#include "g2_scope.h"
#include "gate_run.h"
#include "hook_setup.h"
#include "instrument.h"
#include "opdirs.h"
#include "path_glob.h"
#include "path_rel.h"
#include "project_root.h"
#include "sh_start.h"
#include "udiff.h"
#include "undo_journal.h"
#include "xalloc.h"

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
	      "Each step runs on a staging copy of the files it may touch; the first step\n"
	      "that cannot be done safely stops the job with nothing changed (exit 1 for\n"
	      "manual steps or check findings, 2 for bad input). Then every changed file\n"
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
	      "  --dry-run       print every diff and the report, write nothing\n"
	      "  --format F      text (default) or json, for the report on standard output\n"
	      "  --undo          put back every file the last instrument changed, remove\n"
	      "                  those it created (refuses files edited since, unless --force)\n"
	      "  --force         with --undo\n"
	      "  -h, --help      this help\n"
	      "\n"
	      "Exit status: 0 done (or nothing to do), 1 stopped at a step (manual steps,\n"
	      "check findings), 2 bad usage or input.\n",
	      out);
}

/* ---- the staging copy ---- */

struct stage {
	char *real_root;             /* R, absolute */
	char *root;                  /* T, absolute */
	char *real_cwd;
	char *work;                  /* where the steps run: T + (cwd - R), or T */
	char *opdir;                 /* the operator directory as the steps see it */
	int saved_cwd;               /* fd of the real working directory */
	enum project_root_how root_how; /* how the real root was found */
};

static int mkdir_p(const char *path)
{
	return path_mkdirs(path, NULL);
}

/* Copies one file (bytes and mode) to dst, creating its directories. */
static int copy_file(const char *src, const char *dst, struct diag *diag)
{
	struct src_file *f = src_file_load(src);
	char *dir = xstrdup(dst), *slash = strrchr(dir, '/');
	struct stat st;
	FILE *out;
	int rc = -1;

	if (!f) {
		diag_pos(diag, DIAG_ERROR, src, 0, 0, "cannot read: %s", strerror(errno));
		free(dir);
		return -1;
	}
	if (slash)
		*slash = '\0';
	if (mkdir_p(dir) == 0 && (out = fopen(dst, "wb")) != NULL) {
		rc = fwrite(f->data, 1, f->len, out) == f->len ? 0 : -1;
		if (fclose(out) != 0)
			rc = -1;
		if (rc == 0 && stat(src, &st) == 0)
			chmod(dst, st.st_mode & 07777);
	}
	if (rc != 0)
		diag_pos(diag, DIAG_ERROR, dst, 0, 0, "cannot write the staging copy: %s", strerror(errno));
	src_file_free(f);
	free(dir);
	return rc;
}

/* Stages the real file `path` (as written from the real cwd) at its place under T. */
static int stage_file(const struct stage *s, const char *path, struct diag *diag)
{
	char *abs = path_absolute(path), *rel, *dst;
	int rc;

	if (!abs || !path_within(abs, s->real_root)) {
		free(abs);
		return 0; /* outside the project: not touched */
	}
	rel = path_relative(s->real_root, abs);
	dst = path_join(s->root, rel);
	rc = access(dst, F_OK) == 0 ? 0 : copy_file(abs, dst, diag);
	free(dst);
	free(rel);
	free(abs);
	return rc;
}

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	if (!d) {
		unlink(path);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = path_join(path, e->d_name);
		remove_tree(p);
		free(p);
	}
	closedir(d);
	rmdir(path);
}

static char *stage_to_real(const void *ctx, const char *staged)
{
	const struct stage *s = ctx;
	char *abs = path_absolute(staged), *rel, *real;

	if (!abs) {
		/* not there (yet): the path itself, made absolute lexically */
		char cwd[PATH_MAX], *j;
		if (staged[0] == '/')
			abs = path_normalize(staged);
		else if (getcwd(cwd, sizeof(cwd))) {
			j = path_join(cwd, staged);
			abs = path_normalize(j);
			free(j);
		} else {
			return NULL;
		}
	}
	if (!path_within(abs, s->root)) {
		free(abs);
		return NULL;
	}
	rel = path_relative(s->root, abs);
	real = strcmp(rel, ".") == 0 ? xstrdup(s->real_root) : path_join(s->real_root, rel);
	free(rel);
	free(abs);
	return real;
}

/* The files of the layers that lie outside the operator directory, and the
 * file that runs the build script (it says where the script starts). */
static int stage_project_files(const struct stage *s, const struct project_model *p, const char *script,
			       struct diag *diag)
{
	int rc = 0;

	if (script) {
		struct sh_start start;
		sh_start_find(p->root.abs, script, &start);
		if (start.runner) {
			char *runner = path_join(p->root.abs, start.runner);
			rc = stage_file(s, runner, diag);
			free(runner);
		}
		sh_start_release(&start);
	}

	for (size_t i = 0; i < p->naclnns && rc == 0; i++)
		rc = stage_file(s, p->aclnns[i].f->path, diag);
	for (size_t i = 0; i < p->npybinds && rc == 0; i++)
		rc = stage_file(s, p->pybinds[i].f->path, diag);
	for (size_t i = 0; i < p->nsamples && rc == 0; i++)
		rc = stage_file(s, p->samples[i].f->path, diag);
	/* a direct launch: the host functions, registrations, declarations, the
	   launch macros' definitions and the headers the registrations include */
	for (size_t i = 0; i < p->launch.npaths && rc == 0; i++)
		rc = stage_file(s, p->launch.paths[i], diag);
	if (script && rc == 0)
		rc = stage_file(s, script, diag);
	/* every file G2 reads of the operator, so that the gates of the staged
	   project see a layer the steps did not touch as it is */
	if (rc == 0) {
		struct g2_scope g2;
		struct diag quiet;
		diag_init_quiet(&quiet);
		if (g2_scope_load(p, &g2, &quiet) == 0) {
			for (size_t i = 0; i < g2.npaths && rc == 0; i++)
				rc = stage_file(s, g2.paths[i], diag);
			g2_scope_release(&g2);
		}
	}
	return rc;
}

/* The staged counterpart of a real path (as written from the real cwd), as
 * the steps see it from the mirrored cwd; NULL when it lies outside the
 * project. */
static char *stage_path(const struct stage *s, const char *path)
{
	char *abs = path_absolute(path), *rel, *staged, *seen;

	if (!abs || !path_within(abs, s->real_root)) {
		free(abs);
		return NULL;
	}
	rel = path_relative(s->real_root, abs);
	staged = strcmp(rel, ".") == 0 ? xstrdup(s->root) : path_join(s->root, rel);
	seen = path_display_from(s->work, staged);
	free(staged);
	free(rel);
	free(abs);
	return seen;
}

static int stage_open(struct stage *s, const char *opdir, const struct project_root *root, struct diag *diag)
{
	char buf[PATH_MAX], tmpl[PATH_MAX];
	const char *tmpdir = getenv("TMPDIR");
	char **files = NULL;
	size_t n = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->saved_cwd = -1;
	if (!getcwd(buf, sizeof(buf))) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot tell the working directory: %s", strerror(errno));
		return -1;
	}
	s->real_cwd = xstrdup(buf);
	s->real_root = xstrdup(root->abs);
	s->root_how = root->how;
	snprintf(tmpl, sizeof(tmpl), "%s/autotrace-instrument.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(tmpl)) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot create the staging copy in %s: %s",
			   tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
		return -1;
	}
	s->root = path_absolute(tmpl);
	/* the operator directory, whole */
	if (path_walk(opdir, &files, &n, diag) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char *src = path_join(opdir, files[i]);
		int r = stage_file(s, src, diag);
		free(src);
		if (r != 0)
			goto out;
	}
	/* where the steps run: the same relative paths as the user's */
	if (path_within(s->real_cwd, s->real_root)) {
		char *rel = path_relative(s->real_root, s->real_cwd);
		s->work = strcmp(rel, ".") == 0 ? xstrdup(s->root) : path_join(s->root, rel);
		/* a relative path reads the same from the mirrored cwd; an absolute one
		   names the real tree and must be mapped */
		s->opdir = opdir[0] == '/' ? stage_path(s, opdir) : NULL;
		if (!s->opdir)
			s->opdir = xstrdup(opdir);
		free(rel);
	} else {
		char *oabs = path_absolute(opdir);
		s->work = xstrdup(s->root);
		s->opdir = oabs ? path_relative(s->real_root, oabs) : xstrdup(opdir);
		free(oabs);
	}
	if (mkdir_p(s->work) != 0) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot create %s: %s", s->work, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	path_glob_free(files, n);
	return rc;
}

static int stage_enter(struct stage *s, struct diag *diag)
{
	/* the real root's reason stands for the staging copy's, in messages */
	s->saved_cwd = open(".", O_RDONLY | O_DIRECTORY);
	if (s->saved_cwd < 0 || chdir(s->work) != 0) {
		diag_plain(diag, DIAG_ERROR, "instrument: cannot enter the staging copy: %s", strerror(errno));
		return -1;
	}
	project_root_force(s->root, s->root_how);
	return 0;
}

static void stage_leave(struct stage *s)
{
	project_root_force(NULL, PROJECT_ROOT_OPDIR);
	if (s->saved_cwd >= 0) {
		if (fchdir(s->saved_cwd) != 0)
			perror("autotrace instrument: fchdir");
		close(s->saved_cwd);
		s->saved_cwd = -1;
	}
}

static void stage_close(struct stage *s)
{
	stage_leave(s);
	if (s->root)
		remove_tree(s->root);
	free(s->real_root);
	free(s->root);
	free(s->real_cwd);
	free(s->work);
	free(s->opdir);
}

/* ---- the steps ---- */

/* Runs a command in this process with its standard output kept in *out and
 * its first error's text in *error (when not NULL and there was one). */
static int run_step(cmd_fn fn, char **argv, struct diag *diag, char **out, char **error)
{
	int argc = 0, saved, rc;
	FILE *tmp = tmpfile();
	long len;

	while (argv[argc])
		argc++;
	*out = xstrdup("");
	if (!tmp)
		return EXIT_INTERNAL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
		fclose(tmp);
		return EXIT_INTERNAL;
	}
	optind = 0; /* each command parses its own options afresh */
	diag->first_error[0] = '\0';
	rc = fn(argc, argv, diag);
	if (error && diag->first_error[0])
		*error = xstrdup(diag->first_error);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	len = ftell(tmp);
	if (len > 0) {
		free(*out);
		*out = xmalloc((size_t)len + 1);
		rewind(tmp);
		len = (long)fread(*out, 1, (size_t)len, tmp);
		(*out)[len] = '\0';
	}
	fclose(tmp);
	return rc;
}

struct opts {
	const char *rules;            /* absolute */
	const char *op;               /* --op */
	const char *script;           /* staged path */
	const char *tree;             /* --tree */
	const char *without;          /* --without: layers outside the project */
	bool replace;
};

static char **step_argv(const char *a0, const char *a1, const struct opts *o, bool script, const char *opdir)
{
	char **v = xcalloc(16, sizeof(*v));
	size_t n = 0;

	v[n++] = (char *)a0;
	if (a1)
		v[n++] = (char *)a1;
	if (o->rules) {
		v[n++] = "--rules";
		v[n++] = (char *)o->rules;
	}
	if (script && o->script) {
		v[n++] = "--script";
		v[n++] = (char *)o->script;
	}
	if (script && o->replace)
		v[n++] = "--replace";
	if (script && o->tree) {
		v[n++] = "--tree";
		v[n++] = (char *)o->tree;
	}
	if (strcmp(a0, "wire") == 0 && o->without) {
		v[n++] = "--without";
		v[n++] = (char *)o->without;
	}
	if (!script && o->op) {
		/* the build script's hook serves every operator of the directory */
		v[n++] = "--op";
		v[n++] = (char *)o->op;
	}
	v[n++] = (char *)opdir;
	return v;
}

static int do_steps(struct instrument_run *run, const char *opdir, const struct opts *o, struct diag *diag)
{
	static const char *const names[INSTRUMENT_NSTEPS] = { "wire", "apply", "hook install", "check" };

	for (int i = 0; i < INSTRUMENT_NSTEPS; i++)
		run->steps[i].name = names[i];
	for (int i = 0; i < INSTRUMENT_NSTEPS; i++) {
		struct instrument_step *st = &run->steps[i];
		char **argv;
		switch (i) {
		case INSTRUMENT_WIRE:
			argv = step_argv("wire", NULL, o, false, opdir);
			st->status = run_step(cmd_wire, argv, diag, &st->out, &st->error);
			break;
		case INSTRUMENT_APPLY:
			argv = step_argv("apply", NULL, o, false, opdir);
			st->status = run_step(cmd_apply, argv, diag, &st->out, &st->error);
			break;
		case INSTRUMENT_HOOK:
			argv = step_argv("hook", "install", o, true, opdir);
			st->status = run_step(cmd_hook, argv, diag, &st->out, &st->error);
			break;
		default:
			argv = step_argv("check", NULL, o, false, opdir);
			st->status = run_step(cmd_check, argv, diag, &st->out, &st->error);
			break;
		}
		free(argv);
		st->ran = true;
		if (st->status != EXIT_OK) {
			run->stopped_at = i;
			return st->status;
		}
	}
	return EXIT_OK;
}

/* ---- the result ---- */

struct change {
	char *rel;                    /* relative to the root */
	char *staged;                 /* absolute */
	char *real;                   /* absolute */
	char *display;
	struct src_file *orig;        /* NULL: created */
	struct src_file *now;
};

static void changes_free(struct change *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].rel);
		free(c[i].staged);
		free(c[i].real);
		free(c[i].display);
		src_file_free(c[i].orig);
		src_file_free(c[i].now);
	}
	free(c);
}

/* Every file of the staging copy that differs from the real one, or is new. */
static int find_changes(const struct stage *s, struct change **out, size_t *nout, struct diag *diag)
{
	char **files = NULL;
	size_t n = 0, k = 0;
	struct change *v = NULL;

	*out = NULL;
	*nout = 0;
	if (path_walk(s->root, &files, &n, diag) != 0)
		return -1;
	v = n ? xcalloc(n, sizeof(*v)) : NULL;
	for (size_t i = 0; i < n; i++) {
		struct change c;
		memset(&c, 0, sizeof(c));
		c.rel = xstrdup(files[i]);
		c.staged = path_join(s->root, files[i]);
		c.real = path_join(s->real_root, files[i]);
		c.now = src_file_load(c.staged);
		c.orig = access(c.real, F_OK) == 0 ? src_file_load(c.real) : NULL;
		if (!c.now || (c.orig && c.orig->len == c.now->len && memcmp(c.orig->data, c.now->data, c.now->len) == 0)) {
			free(c.rel);
			free(c.staged);
			free(c.real);
			src_file_free(c.orig);
			src_file_free(c.now);
			continue;
		}
		c.display = path_display_from(s->real_cwd, c.real);
		v[k++] = c;
	}
	path_glob_free(files, n);
	*out = v;
	*nout = k;
	return 0;
}

static int write_changes(const char *opdir, const char *journal, struct change *c, size_t n, struct diag *diag)
{
	const char **paths = xcalloc(n + 1, sizeof(*paths)), **texts = xcalloc(n + 1, sizeof(*texts));
	const struct src_file **origs = xcalloc(n + 1, sizeof(*origs));
	size_t *lens = xcalloc(n + 1, sizeof(*lens));
	int rc;

	for (size_t i = 0; i < n; i++) {
		paths[i] = c[i].display;
		texts[i] = c[i].now->data;
		lens[i] = c[i].now->len;
		origs[i] = c[i].orig;
	}
	rc = undo_journal_write(opdir, journal, "instrument", paths, origs, texts, lens, n, diag);
	free(paths);
	free(texts);
	free(origs);
	free(lens);
	return rc;
}

/* The point tree: `plan --format json` of the staged tree. */
static cJSON *plan_json(const char *opdir, const struct opts *o, struct diag *diag)
{
	char **argv = xcalloc(10, sizeof(*argv)), *out = NULL;
	size_t n = 0;
	cJSON *j = NULL;
	struct diag quiet;
	FILE *null = fopen("/dev/null", "w");

	(void)diag;
	diag_init(&quiet, null ? null : stderr, false);
	argv[n++] = "plan";
	argv[n++] = "--format";
	argv[n++] = "json";
	if (o->rules) {
		argv[n++] = "--rules";
		argv[n++] = (char *)o->rules;
	}
	if (o->op) {
		argv[n++] = "--op";
		argv[n++] = (char *)o->op;
	}
	argv[n++] = (char *)opdir;
	if (run_step(cmd_plan, argv, &quiet, &out, NULL) == EXIT_OK)
		j = cJSON_Parse(out);
	free(out);
	free(argv);
	if (null)
		fclose(null);
	return j;
}

/* The gates of the staged project but those that run the team's build. */
static void run_gates(struct instrument_run *run, struct project_opts *go, const char *opdir, const char *rules,
		      const char *op, const char *script, const char *tree, const char *without)
{
	struct diag quiet;
	FILE *null = fopen("/dev/null", "w");

	diag_init(&quiet, null ? null : stderr, false);
	memset(go, 0, sizeof(*go));
	go->opdir = opdir;
	go->rules = rules;
	go->op = op;
	go->script = script;
	go->tree = tree;
	go->without = without;
	run->project = project_load(go, &quiet);
	if (run->project) {
		struct gate_report *r = gate_report_new(opdir);
		for (int g = 0; g < GATE_COUNT; g++)
			if (gate_def((enum gate_id)g)->phase == GATE_BUILDS) {
				r->gates[g].run = false;
				r->gates[g].note = xstrdup("instrument does not run the build");
			}
		gate_run(run->project, r);
		run->gates = r;
	}
	if (null)
		fclose(null);
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

/* A stopped job reports on the real tree: its paths are the real ones. */
static char *identity_path(const void *ctx, const char *path)
{
	(void)ctx;
	(void)path;
	return NULL;
}

/* The build script as the steps saw it in the staging copy. */
static char *staged_script(const struct stage *st, const struct project_model *real, const char *given, const char *found)
{
	struct project_root r;
	struct diag quiet;
	FILE *null;
	char *sp = NULL;

	(void)st;
	if (given)
		return xstrdup(given);
	if (!found)
		return NULL;
	null = fopen("/dev/null", "w");
	diag_init(&quiet, null ? null : stderr, false);
	if (project_root_find(st->opdir, real->policy, &r, &quiet) == 0) {
		if (project_build_script(&r, &real->policy->build, &sp, &quiet) != 0)
			sp = NULL;
		project_root_release(&r);
	}
	if (null)
		fclose(null);
	return sp;
}

static int run_instrument(const char *opdir, const struct opts *given, bool dry_run, bool json, struct diag *diag)
{
	struct project_opts lo, go;
	struct project_model *real = NULL;
	struct stage st;
	struct instrument_run run;
	struct opts o = *given;
	struct change *ch = NULL;
	size_t nch = 0;
	char *rules_abs = NULL, *script_real = NULL, *script_staged = NULL, *journal = NULL;
	int status = EXIT_OK;
	struct stat sb;
	bool entered = false;
	cJSON *report = NULL;

	memset(&st, 0, sizeof(st));
	st.saved_cwd = -1;
	memset(&run, 0, sizeof(run));
	run.opdir = opdir;
	run.dry_run = dry_run;
	run.stopped_at = -1;
	if (stat(opdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "instrument: %s is not a directory", opdir);
		return EXIT_BAD_INPUT;
	}
	if (o.rules) {
		rules_abs = path_absolute(o.rules);
		if (!rules_abs) {
			diag_plain(diag, DIAG_ERROR, "instrument: cannot read the rules file %s: %s", o.rules, strerror(errno));
			return EXIT_BAD_INPUT;
		}
		o.rules = rules_abs;
	}
	/* what the steps may touch, read in the real tree */
	memset(&lo, 0, sizeof(lo));
	lo.opdir = opdir;
	lo.rules = o.rules;
	lo.op = o.op;
	lo.without = o.without;
	real = project_load(&lo, diag);
	if (!real) {
		status = EXIT_BAD_INPUT;
		goto out;
	}
	if (o.script) {
		script_real = xstrdup(o.script);
	} else {
		struct diag quiet;
		FILE *null = fopen("/dev/null", "w");
		diag_init(&quiet, null ? null : stderr, false);
		if (project_build_script(&real->root, &real->policy->build, &script_real, &quiet) != 0)
			script_real = NULL; /* hook install says why, in order */
		if (null)
			fclose(null);
	}
	if (stage_open(&st, opdir, &real->root, diag) != 0 || stage_project_files(&st, real, script_real, diag) != 0) {
		status = EXIT_BAD_INPUT;
		goto out;
	}
	if (o.script) {
		script_staged = stage_path(&st, o.script);
		o.script = script_staged ? script_staged : o.script;
	}
	run.to_real = stage_to_real;
	run.ctx = &st;
	run.real_cwd = st.real_cwd;
	run.root_how = project_root_how_text(real->root.how);
	if (stage_enter(&st, diag) != 0) {
		status = EXIT_BAD_INPUT;
		goto out;
	}
	entered = true;
	status = do_steps(&run, st.opdir, &o, diag);
	if (status == EXIT_OK) {
		/* the result, seen in the staging copy: its plan, its gates, its changes */
		run.plan = plan_json(st.opdir, &o, diag);
		run.script = staged_script(&st, real, o.script, script_real);
		run_gates(&run, &go, st.opdir, o.rules, o.op, run.script, o.tree, o.without);
		if (find_changes(&st, &ch, &nch, diag) != 0) {
			status = EXIT_INTERNAL;
			goto out;
		}
		run.files = nch ? xcalloc(nch, sizeof(*run.files)) : NULL;
		for (size_t i = 0; i < nch; i++) {
			run.files[i].path = xstrdup(ch[i].display);
			run.files[i].created = ch[i].orig == NULL;
		}
		run.nfiles = nch;
		report = instrument_report(&run);
	}
	stage_leave(&st);
	entered = false;
	if (status == EXIT_OK) {
		if (dry_run)
			for (size_t i = 0; i < nch; i++)
				udiff_print(stdout, ch[i].display, ch[i].orig ? ch[i].orig->data : "", ch[i].orig ? ch[i].orig->len : 0,
					    ch[i].now->data, ch[i].now->len);
		else if (nch && (journal = project_op_journal(&real->choice, INSTRUMENT_UNDO_NAME)) &&
			 write_changes(opdir, journal, ch, nch, diag) != 0) {
			status = EXIT_BAD_INPUT; /* said why; nothing changed, no report of a job not done */
			goto out;
		}
	} else {
		/* stopped, nothing changed: the report of the real tree as it stands */
		run.to_real = identity_path;
		run.plan = plan_json(opdir, &o, diag);
		run.script = script_real ? xstrdup(script_real) : NULL;
		run_gates(&run, &go, opdir, o.rules, o.op, run.script, o.tree, o.without);
		report = instrument_report(&run);
	}
	if (report && emit_report(report, json) != 0)
		status = EXIT_INTERNAL;
out:
	if (entered)
		stage_leave(&st);
	for (int i = 0; i < INSTRUMENT_NSTEPS; i++) {
		free(run.steps[i].out);
		free(run.steps[i].error);
	}
	for (size_t i = 0; i < run.nfiles; i++)
		free(run.files[i].path);
	free(run.files);
	cJSON_Delete(run.plan);
	gate_report_free(run.gates);
	project_free(run.project);
	free((char *)run.script);
	cJSON_Delete(report);
	changes_free(ch, nch);
	stage_close(&st);
	project_free(real);
	free(rules_abs);
	free(script_real);
	free(script_staged);
	free(journal);
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
	struct opts o;
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
		int status;
		if (!dry_run && stat(opdir, &st) == 0 && S_ISDIR(st.st_mode) &&
		    !(lock = edit_lock_acquire(opdir, undo ? "instrument --undo" : "instrument", diag)))
			return EXIT_BAD_INPUT;
		if (undo) {
			char *journal;
			status = opdirs_journal(opdir, o.rules, o.op, INSTRUMENT_UNDO_NAME, &journal, diag) == 0
					 ? (undo_journal_restore(opdir, journal, "instrument", dry_run, force, diag) == 0 ? EXIT_OK : EXIT_BAD_INPUT)
					 : EXIT_BAD_INPUT;
			free(journal);
		} else {
			status = run_instrument(opdir, &o, dry_run, json, diag);
		}
		edit_lock_release(lock);
		return status;
	}
}
