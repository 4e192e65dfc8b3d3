/* What the words of a build script stand for at one point of it, as far as
 * it can be told without running it. The flow that leads to the point is
 * followed from the top level through the calls of the script's functions
 * (their bodies run where they are called, with their arguments as $1..$9);
 * what a subshell did is gone once it has ended. Along it: assignments
 * (`local`, `export`, `readonly`, `declare` too), `${v:-default}`, the
 * directory and file parts of `${v}` (`%` and `##` of a slash), `$0` /
 * `${BASH_SOURCE[0]}`, `$PWD`, command substitutions made of `cd`, `pwd`,
 * `dirname`, `realpath`, `readlink -f`, `echo` and
 * `git rev-parse --show-toplevel`, and the working directory after `cd`,
 * `pushd`, `popd` and `cd -`, from the directory the script starts in.
 * Used to say in which directory the build step runs (the G1 hook's tree),
 * where point_map.json will be written, and how the script is run (the
 * arguments it takes). */
#ifndef AUTOTRACE_SH_EVAL_H
#define AUTOTRACE_SH_EVAL_H

#include <stdbool.h>

#include "sh_scan.h"
#include "src_file.h"

/* Where the script runs. */
struct sh_eval_ctx {
	const char *start;            /* absolute: the directory the script starts in */
	const char *root;             /* absolute: the project root (what `git rev-parse --show-toplevel`
	                                 prints; assumptions stay inside it), or NULL */
	const char *anchors[2];       /* absolute directories known to exist (the script's, the operator's),
	                                 or NULL: what the value of a variable the script does not set may
	                                 be taken from (see struct sh_dir) */
};

/* The working directory at a point of the script. */
struct sh_dir {
	char *abs;                    /* absolute and normalised; NULL: not known */
	long cmd;                     /* the cd / pushd / popd that set it last, or -1: the starting directory */
	char *word;                   /* that command's directory word, when it names an absolute path and can
	                                 be written again at the point (quoted text and $NAME expansions of
	                                 the same flow); else NULL */
	bool from_start;              /* the directory is found from the starting one (`cd csrc`, `$(pwd)`) */
	char *assumed_var;            /* a variable the script does not set (ROOT_DIR=$1, the environment's),
	                                 whose value was taken for `assumed_value`: the path after it in the
	                                 cd's word ("${ROOT_DIR}/csrc") is one of the anchors or above them */
	char *assumed_value;
	char *unknown;                /* abs NULL: what it depends on ("$1, an argument of the script") */
};

/* The directory the script runs in at offset `point`, in the flow of command
 * `at` (the command at or right after the point). Fills *out; never fails. */
void sh_eval_dir(const struct src_file *f, const struct sh_script *sh, size_t at, uint32_t point,
		 const struct sh_eval_ctx *ctx, struct sh_dir *out);
void sh_dir_release(struct sh_dir *d);

/* The absolute path `word` names at that point; NULL when it depends on
 * something the script does not say (an argument, the environment, a
 * command's output). Newly allocated. */
char *sh_eval_word(const struct src_file *f, const struct sh_script *sh, size_t at, uint32_t point,
		   const struct sh_eval_ctx *ctx, const char *word);

/* The script's arguments as its top level names them (ROOT_DIR=$1,
 * SOC="${2:-...}": "ROOT_DIR", "SOC"; ARGn for a position it does not
 * name): their count, the names newly allocated in *names (NULL for none). */
size_t sh_eval_arguments(const struct src_file *f, const struct sh_script *sh, char ***names);

#endif
