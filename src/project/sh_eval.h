/* What a word of a build script stands for at one of its commands, as far as
 * it can be told without running it: the script's top-level assignments and
 * those of the function before the command, `${v:-default}`, `$0` /
 * `${BASH_SOURCE[0]}`, the `$(cd "$(dirname "$0")" && pwd)` idiom, and the
 * directory the command runs in after the `cd`s before it. Used to say where
 * point_map.json will be written (the hook's tree) with a real path, and how
 * the script is run (the arguments it takes). */
#ifndef AUTOTRACE_SH_EVAL_H
#define AUTOTRACE_SH_EVAL_H

#include "sh_scan.h"
#include "src_file.h"

/* The absolute path `word` names at command `at` of script `f` (scanned into
 * `sh`), the script being run from its own directory; NULL when it depends
 * on something the script does not say (an argument, the environment, a
 * command's output). Newly allocated. */
char *sh_eval_path(const struct src_file *f, const struct sh_script *sh, size_t at, const char *word);

/* The script's arguments as its top level names them (ROOT_DIR=$1,
 * SOC="${2:-...}": "ROOT_DIR", "SOC"; ARGn for a position it does not
 * name): their count, the names newly allocated in *names (NULL for none). */
size_t sh_eval_arguments(const struct src_file *f, const struct sh_script *sh, char ***names);

#endif
