/* `autotrace instrument`: the whole job on one operator -- wire, apply, hook
 * install, check -- and the closing report the field's checklist asks for.
 *
 * The steps run in order on a staging copy of the files they may touch (the
 * operator directory and the project-level files of its layers, at their
 * paths under the project root, the working directory mirrored), so that a
 * step that cannot be done safely stops the job with nothing changed, and
 * --dry-run shows every step's diff together. The changed files are then
 * written all together, their originals kept in the undo journal
 * OPDIR/.autotrace/instrument-undo/.
 *
 * The report is one cJSON object (--format json prints it; the text form is
 * printed from it), built by instrument_report() from the staged project
 * after the steps. */
#ifndef AUTOTRACE_INSTRUMENT_H
#define AUTOTRACE_INSTRUMENT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

#include "gate.h"
#include "project_model.h"

#define INSTRUMENT_UNDO_NAME "instrument-undo"

/* The steps; the last, gates, runs the gates that need no build on the
 * result and stops the job (nothing written) when one does not hold. */
enum instrument_step_id { INSTRUMENT_WIRE, INSTRUMENT_APPLY, INSTRUMENT_HOOK, INSTRUMENT_CHECK, INSTRUMENT_GATES,
			  INSTRUMENT_NSTEPS };

/* Why a step (or the job) stopped. */
enum instrument_stop {
	INSTRUMENT_STOP_NONE,         /* done */
	INSTRUMENT_STOP_FINDINGS,     /* manual steps left, check findings */
	INSTRUMENT_STOP_INPUT,        /* bad input (said why) */
	INSTRUMENT_STOP_INTERNAL,     /* an error of ours or of the environment */
};

struct instrument_step {
	const char *name;            /* "wire", "apply", "hook install", "check", "gates" */
	bool ran;
	enum instrument_stop stop;
	char *summary;               /* one line, made from the step's result; NULL when not run */
	char *error;                 /* its first error's text, or NULL */
};

/* A file the job changes, as the user's paths are written. */
struct instrument_file {
	char *path;
	bool created;
};

/* What the report is made from. */
struct instrument_run {
	const char *opdir;           /* as given */
	bool dry_run;
	struct instrument_step steps[INSTRUMENT_NSTEPS];
	int stopped_at;              /* a step, or -1 */
	struct instrument_file *files;
	size_t nfiles;
	/* maps a path of the staging copy to the real one (absolute), NULL when outside */
	char *(*to_real)(const void *ctx, const char *staged);
	const void *ctx;
	const char *real_cwd;        /* for display paths */
	const char *root_how;        /* how the real project root was found */
	const char *script;          /* the build script (staged path), or NULL */
	cJSON *plan;                 /* `plan --format json` of the staged tree, or NULL */
	struct project_model *project;/* of the staged tree after the steps, or NULL */
	struct gate_report *gates;   /* its gates but those that build (not run), or NULL */
};

/* The job: the steps in order on the staging copy, written back together
 * unless dry_run, the report. */
struct instrument_opts {
	const char *opdir;
	const char *rules;            /* --rules, or NULL */
	const char *op;               /* --op, or NULL */
	const char *script;           /* --script, or NULL: found */
	const char *tree;             /* --tree, or NULL */
	const char *without;          /* --without, or NULL */
	bool replace, dry_run;
	bool build_absent;            /* set by instrument_run: the real project has no build
	                                 script of the operator (the hook's layer is absent) */
};

/* A file the job changes (a dry run shows it as a diff). */
struct instrument_change {
	const char *path;             /* as the user's paths are written */
	const struct src_file *orig;  /* NULL: created */
	const struct src_file *now;
};

struct instrument_outcome {
	enum instrument_stop stop;    /* of the job: the stopped step's, or a failure before or after the steps */
	cJSON *report;                /* NULL when the job failed before there was one */
	struct instrument_change *changes; /* done (or a dry run): what changes */
	size_t nchanges;
	void *own;                    /* what the changes point into */
};

/* 0 when there is a report (the job done, or stopped at a step with the
 * real tree unchanged); -1 after reporting a failure before the steps or
 * while writing back (nothing changed). */
int instrument_run(const struct instrument_opts *o, struct instrument_outcome *out, struct diag *diag);
void instrument_outcome_release(struct instrument_outcome *out);

/* The report (a new cJSON object the caller deletes). Call inside the staging copy. */
cJSON *instrument_report(const struct instrument_run *run);
/* The text form of a report. */
void instrument_report_text(FILE *out, const cJSON *report);

#endif
