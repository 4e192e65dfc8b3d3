/* Where a build script starts: the calls of it in the project's other files. */
#define _GNU_SOURCE /* memmem(3) */
#include "sh_start.h"

#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "path_glob.h"
#include "path_rel.h"
#include "sh_eval.h"
#include "sh_scan.h"
#include "src_file.h"
#include "xalloc.h"

/* A file bigger than this is not a build file. */
#define MAX_RUNNER_BYTES (2u << 20)

enum runner_kind { R_NONE = -1, R_SHELL, R_PYTHON, R_CMAKE, R_YAML, R_MAKE };

/* What one call of the script says. */
struct finding {
	char *dir;                    /* the directory it starts in, absolute; NULL: not known */
	char *how;                    /* "`bash csrc/build_aclnn.sh`", "... WORKING_DIRECTORY ..." */
	char *unknown;                /* dir NULL: why */
};

struct search {
	const char *root;
	char *script;                 /* absolute */
	const char *base;             /* its file name */
	size_t baselen;
};

static void finding_clear(struct finding *f)
{
	free(f->dir);
	free(f->how);
	free(f->unknown);
	memset(f, 0, sizeof(*f));
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static enum runner_kind kind_of(const char *rel, const struct src_file *f)
{
	const char *b = strrchr(rel, '/');

	b = b ? b + 1 : rel;
	if (ends_with(b, ".sh") || ends_with(b, ".bash"))
		return R_SHELL;
	if (ends_with(b, ".py"))
		return R_PYTHON;
	if (strcmp(b, "CMakeLists.txt") == 0 || ends_with(b, ".cmake"))
		return R_CMAKE;
	if (ends_with(b, ".yml") || ends_with(b, ".yaml"))
		return R_YAML;
	if (strcmp(b, "Makefile") == 0 || strcmp(b, "makefile") == 0 || strcmp(b, "GNUmakefile") == 0 || ends_with(b, ".mk"))
		return R_MAKE;
	if (!strchr(b, '.') && f && f->len > 2 && memcmp(f->data, "#!", 2) == 0) {
		const char *nl = memchr(f->data, '\n', f->len);
		size_t n = nl ? (size_t)(nl - f->data) : f->len;
		char *first = xstrndup(f->data, n);
		bool sh = strstr(first, "sh") != NULL;
		free(first);
		return sh ? R_SHELL : R_NONE;
	}
	return R_NONE;
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_./-+@%~:${}", c));
}

/* The path-like text around the occurrence of the name at [o, o + n). */
static void token_at(const struct src_file *f, size_t o, size_t n, size_t *ts, size_t *te)
{
	size_t s = o;

	while (s > 0 && path_char(f->data[s - 1]))
		s--;
	*ts = s;
	*te = o + n;
}

/* "dir/token" is the script (the token written without variables). */
static bool names_script(const struct search *sr, const char *dir, const char *token)
{
	char *j, *norm;
	bool yes;

	if (!dir || strpbrk(token, "${}~"))
		return false;
	j = token[0] == '/' ? xstrdup(token) : path_join(dir, token);
	norm = path_normalize(j);
	yes = strcmp(norm, sr->script) == 0;
	free(j);
	free(norm);
	return yes;
}

/* The directory `token` (a relative path to the script, with no variables)
 * is written from, or NULL. */
static char *dir_from_token(const struct search *sr, const char *token)
{
	char *norm, *tail, *dir = NULL;

	if (token[0] == '/' || strpbrk(token, "${}~"))
		return NULL;
	norm = path_normalize(token);
	tail = xasprintf("/%s", norm);
	if (strncmp(norm, "../", 3) != 0 && ends_with(sr->script, tail)) {
		dir = xstrndup(sr->script, strlen(sr->script) - strlen(tail));
		if (!*dir) {
			free(dir);
			dir = xstrdup("/");
		}
		if (!path_within(dir, sr->root)) {
			free(dir);
			dir = NULL;
		}
	}
	free(norm);
	free(tail);
	return dir;
}

static char *dir_of(const char *path)
{
	char *d = xstrdup(path), *slash = strrchr(d, '/');

	if (slash && slash != d)
		*slash = '\0';
	else if (slash)
		d[1] = '\0';
	return d;
}

/* ---- shell: a script, a CI step, a recipe ---- */

static bool is_runner_program(const char *w, size_t n)
{
	static const char *const progs[] = { "bash", "sh", "zsh", "dash", "ksh", "source", ".", "exec", "nohup",
					     "time", "env", "sudo", "/bin/bash", "/bin/sh", "/usr/bin/env", NULL };
	for (int i = 0; progs[i]; i++)
		if (strlen(progs[i]) == n && memcmp(progs[i], w, n) == 0)
			return true;
	return false;
}

/* The shell text `text` (a file of its own, or a snippet of one: `path`
 * names it) runs the script with the word holding offset o? Where, when its
 * own start is `start`. */
static bool shell_call(const struct search *sr, const char *path, const char *text, size_t len, size_t o,
		       const char *start, struct finding *out)
{
	struct src_file *f = src_file_from_buffer(path, text, len);
	struct sh_script sh;
	bool found = false;

	sh_scan(f->data, f->len, &sh);
	for (size_t k = 0; k < sh.ncmds && !found; k++) {
		const struct sh_cmd *c = &sh.cmds[k];
		long cw = sh_cmd_word(&sh, c), at = -1;
		if (cw < 0 || c->defines >= 0)
			continue;
		for (size_t i = (size_t)cw; i < c->nwords; i++)
			if (c->words[i].start <= o && o < c->words[i].end)
				at = (long)i;
		if (at < 0)
			continue;
		/* run by name, or as the operand of bash / sh / source / env ... */
		if (at != cw) {
			const struct sh_word *p = &c->words[cw];
			bool ok = is_runner_program(f->data + p->start, p->end - p->start);
			for (long i = cw + 1; ok && i < at; i++) {
				const char *w = f->data + c->words[i].start;
				size_t wl = c->words[i].end - c->words[i].start;
				ok = w[0] == '-' || memchr(w, '=', wl) != NULL || is_runner_program(w, wl);
			}
			if (!ok)
				break;
		}
		found = true;
		{
			struct sh_eval_ctx ctx = { start, sr->root, { NULL, NULL } };
			struct sh_dir d;
			char *word = xstrndup(f->data + c->words[at].start, c->words[at].end - c->words[at].start);
			char *names = sh_eval_word(f, &sh, k, c->start, &ctx, word);
			sh_eval_dir(f, &sh, k, c->start, &ctx, &d);
			out->how = xasprintf("`%.*s`", (int)(c->end - c->start), f->data + c->start);
			if (names && strcmp(names, sr->script) == 0 && d.abs)
				out->dir = xstrdup(d.abs);
			else if (!names || strcmp(names, sr->script) == 0)
				out->unknown = xasprintf("the directory it runs %s from is not known here (%s)", word,
							 d.unknown ? d.unknown : "it names the script by something not known here");
			else
				found = false; /* another script of the same name */
			if (!found) {
				free(out->how);
				out->how = NULL;
			}
			free(names);
			free(word);
			sh_dir_release(&d);
		}
	}
	sh_script_release(&sh);
	src_file_free(f);
	return found;
}

static size_t indent_of(const char *s, const char *e)
{
	size_t n = 0;

	while (s + n < e && (s[n] == ' ' || s[n] == '\t'))
		n++;
	return n;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* The value of `key:` on the line [s, e), or NULL. */
static char *yaml_value(const char *s, const char *e, const char *key)
{
	size_t ind = indent_of(s, e), kl = strlen(key);
	const char *p = s + ind;

	if (p + 2 <= e && p[0] == '-' && p[1] == ' ')
		p += 2 + indent_of(p + 2, e);
	if ((size_t)(e - p) <= kl || memcmp(p, key, kl) != 0 || p[kl] != ':')
		return NULL;
	p += kl + 1;
	p += indent_of(p, e);
	while (e > p && (e[-1] == ' ' || e[-1] == '\r'))
		e--;
	if (e - p >= 2 && (*p == '"' || *p == '\'') && e[-1] == *p)
		return xstrndup(p + 1, (size_t)(e - p - 2));
	return xstrndup(p, (size_t)(e - p));
}

/* The column of a YAML line's key: its indentation, after a list dash. */
static size_t key_col(const char *s, const char *e)
{
	size_t n = indent_of(s, e);

	return s + n + 1 < e && s[n] == '-' && s[n + 1] == ' ' ? n + 2 + indent_of(s + n + 2, e) : n;
}

/* `working-directory:` of the step holding the line at `key` (the step: from
 * the list item above it down to the next one at that indentation), or NULL. */
static char *step_working_dir(const struct src_file *f, const char *key)
{
	const char *data = f->data, *end = data + f->len;
	size_t l = src_file_line(f, (uint32_t)(key - data)), col = key_col(key, line_end(key, end)), step = l, nlines;
	size_t step_ind;
	char *wd = NULL;

	for (;;) {
		const char *s = data + src_file_line_start(f, step), *e = line_end(s, end);
		size_t ind = indent_of(s, e);
		if (s + ind + 1 < e && s[ind] == '-' && s[ind + 1] == ' ' && ind < col)
			break;
		if ((s + ind < e && ind < col && step != l) || step == 1)
			return NULL;
		step--;
	}
	step_ind = indent_of(data + src_file_line_start(f, step), end);
	nlines = src_file_line(f, (uint32_t)f->len);
	for (size_t k = step; k <= nlines && !wd; k++) {
		const char *s = data + src_file_line_start(f, k), *e = line_end(s, end);
		size_t ind = indent_of(s, e);
		if (k > step && s + ind < e && ind <= step_ind)
			break;
		wd = yaml_value(s, e, "working-directory");
		if (s >= end)
			break;
	}
	return wd;
}

/* A CI step: `run: CMD`, a `run: |` block, a `script:` list; the step's
 * `working-directory:`; the job runs from the top of the checkout. */
static bool yaml_call(const struct search *sr, const struct src_file *f, size_t o, struct finding *out)
{
	static const char *const keys[] = { "run", "script", "before_script", "after_script", NULL };
	const char *data = f->data, *end = f->data + f->len;
	size_t line = src_file_line(f, (uint32_t)o);
	const char *ls = data + src_file_line_start(f, line), *le = line_end(ls, end);
	size_t ind = indent_of(ls, le);
	const char *from = NULL, *key = NULL;
	char *wd, *start, *t;
	bool found;

	for (int k = 0; keys[k] && !from; k++) {
		char *v = yaml_value(ls, le, keys[k]);
		if (v) {
			from = (const char *)memchr(ls, ':', (size_t)(le - ls)) + 1;
			key = ls;
		}
		free(v);
	}
	/* a block under `run: |` or an item of a `script:` list: the key above, less indented */
	for (size_t l = line; !from && l-- > 1;) {
		const char *s = data + src_file_line_start(f, l), *e = line_end(s, end);
		size_t li = indent_of(s, e);
		if (s + li == e || li >= ind)
			continue;
		for (int k = 0; keys[k] && !from; k++) {
			char *v = yaml_value(s, e, keys[k]);
			if (v) {
				from = e + 1;
				key = s;
			}
			free(v);
		}
		break;
	}
	if (!from)
		return false;
	wd = step_working_dir(f, key);
	if (wd && strchr(wd, '$')) {
		out->how = xasprintf("a step in working-directory %s", wd);
		out->unknown = xasprintf("%s is not known here", wd);
		free(wd);
		return true;
	}
	start = wd ? (wd[0] == '/' ? path_normalize(wd) : path_join(sr->root, wd)) : xstrdup(sr->root);
	/* the list dashes at line starts blanked: the rest is shell */
	t = xstrndup(from, (size_t)(le - from));
	for (char *p = t; p && *p;) {
		char *q = p + strspn(p, " \t");
		if (q[0] == '-' && q[1] == ' ')
			*q = ' ';
		p = strchr(q, '\n');
		p = p ? p + 1 : NULL;
	}
	found = shell_call(sr, f->path, t, strlen(t), o - (size_t)(from - data), start, out);
	free(t);
	free(start);
	free(wd);
	return found;
}

/* A Makefile recipe line: run by its own shell, in the Makefile's directory. */
static bool make_call(const struct search *sr, const struct src_file *f, size_t o, struct finding *out)
{
	size_t line = src_file_line(f, (uint32_t)o);
	const char *ls = f->data + src_file_line_start(f, line), *le = line_end(ls, f->data + f->len);
	const char *s = ls;
	char *dir, *t;
	bool found;

	if (*s != '\t')
		return false;
	s++;
	while (s < le && (*s == '@' || *s == '-' || *s == '+'))
		s++;
	dir = dir_of(f->path);
	{
		char *abs = path_absolute(dir);
		free(dir);
		dir = abs ? abs : xstrdup(sr->root);
	}
	t = xstrndup(s, (size_t)(le - s));
	found = shell_call(sr, f->path, t, strlen(t), o - (size_t)(s - f->data), dir, out);
	free(t);
	free(dir);
	return found;
}

/* ---- Python: subprocess / os.system, cwd= ---- */

static bool has_text(const char *s, const char *e, const char *what)
{
	return memmem(s, (size_t)(e - s), what, strlen(what)) != NULL;
}

static bool python_call(const struct search *sr, const struct src_file *f, size_t ts, size_t te, struct finding *out)
{
	const char *data = f->data, *end = data + f->len;
	size_t line = src_file_line(f, (uint32_t)ts), first = line > 3 ? line - 3 : 1;
	const char *s = data + src_file_line_start(f, first), *e = data + te;
	const char *ls = data + src_file_line_start(f, line);
	char q = ts > 0 ? data[ts - 1] : 0;
	char *token, *pydir, *dir = NULL, *abs;
	const char *cwd;
	bool joined;

	if ((q != '"' && q != '\'') || te >= f->len || data[te] != q)
		return false;
	for (const char *p = ls; p < data + ts; p++)
		if (*p == '#')
			return false;
	/* the statement runs a process */
	{
		const char *after = line_end(data + te, end);
		for (int more = 0; more < 4 && after < end; more++)
			after = line_end(after + 1, end);
		if (!has_text(s, after, "subprocess") && !has_text(s, after, "os.system") && !has_text(s, after, "check_call") &&
		    !has_text(s, after, "check_output") && !has_text(s, after, "Popen") && !has_text(s, after, "spawn"))
			return false;
		e = after;
	}
	token = xstrndup(data + ts, te - ts);
	{
		/* os.path.join(ROOT, "csrc", "build_aclnn.sh"): the path is whole,
		   the process's cwd does not matter for it */
		const char *b = data + ts - 1;
		while (b > ls && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		joined = b > ls && (b[-1] == ',' || b[-1] == '/') &&
			 (has_text(s, data + ts, "join(") || has_text(s, data + ts, "Path("));
	}
	abs = path_absolute(f->path);
	pydir = abs ? dir_of(abs) : xstrdup(sr->root);
	free(abs);
	/* cwd=: a string, or the file's own directory (__file__) */
	cwd = memmem(data + ts, (size_t)(e - (data + ts)), "cwd=", 4);
	if (cwd) {
		const char *v = cwd + 4, *ve = line_end(v, end);
		while (v < ve && *v == ' ')
			v++;
		if (v < ve && (*v == '"' || *v == '\'')) {
			const char *close = memchr(v + 1, *v, (size_t)(ve - v - 1));
			if (close) {
				char *lit = xstrndup(v + 1, (size_t)(close - v - 1)), *j;
				j = lit[0] == '/' ? xstrdup(lit) : path_join(pydir, lit);
				dir = path_normalize(j);
				free(j);
				free(lit);
			}
		} else if (has_text(v, ve, "__file__") && !has_text(v, ve, "parent.parent")) {
			dir = xstrdup(pydir);
		}
		out->how = xasprintf("\"%.*s\" in a subprocess with cwd=%.*s", (int)(te - ts), data + ts,
				     (int)strcspn(cwd + 4, ",)\n"), cwd + 4);
		if (!dir)
			out->unknown = xstrdup("its cwd= is not known here");
	} else {
		/* the process runs where Python was started: setup.py, in its own directory */
		dir = xstrdup(pydir);
		out->how = xasprintf("\"%.*s\" in a subprocess, from its own directory", (int)(te - ts), data + ts);
	}
	if (dir && !joined && !names_script(sr, dir, token)) {
		/* a relative path that does not lead there from that directory: where it does */
		char *d2 = dir_from_token(sr, token);
		free(dir);
		dir = d2;
		if (!dir) {
			free(out->unknown);
			out->unknown = xasprintf("%s does not lead to the script from there", token);
		}
	}
	out->dir = dir;
	free(token);
	free(pydir);
	return true;
}

/* ---- CMake: execute_process, add_custom_command, add_custom_target ---- */

/* A directory of CMake's variables: the file's own, the top source dir. */
static char *cmake_dir(const struct search *sr, const char *file_abs, const char *v)
{
	char *fdir = dir_of(file_abs), *top = NULL, *base, *out;
	const char *rest;

	if (strncmp(v, "${CMAKE_CURRENT_SOURCE_DIR}", 27) == 0) {
		rest = v + 27;
		base = xstrdup(fdir);
	} else if (strncmp(v, "${CMAKE_CURRENT_LIST_DIR}", 25) == 0) {
		rest = v + 25;
		base = xstrdup(fdir);
	} else if (strncmp(v, "${CMAKE_SOURCE_DIR}", 19) == 0 || strncmp(v, "${PROJECT_SOURCE_DIR}", 21) == 0) {
		/* the highest directory of CMakeLists.txt from the root down to the file's */
		char *d = xstrdup(fdir);
		rest = v + (v[2] == 'C' ? 19 : 21);
		for (;;) {
			char *cl = path_join(d, "CMakeLists.txt");
			char *up;
			if (access(cl, F_OK) == 0) {
				free(top);
				top = xstrdup(d);
			}
			free(cl);
			if (strcmp(d, sr->root) == 0 || strcmp(d, "/") == 0)
				break;
			up = dir_of(d);
			free(d);
			d = up;
		}
		free(d);
		base = top ? top : xstrdup(fdir);
	} else if (v[0] == '/' && !strchr(v, '$')) {
		rest = "";
		base = xstrdup(v);
	} else {
		free(fdir);
		return NULL;
	}
	if (strchr(rest, '$')) {
		free(base);
		free(fdir);
		return NULL;
	}
	{
		char *j = xasprintf("%s%s", base, rest);
		out = path_normalize(j);
		free(j);
	}
	free(base);
	free(fdir);
	return out;
}

static bool cmake_call(const struct search *sr, const struct src_file *f, size_t ts, size_t te, struct finding *out)
{
	const char *data = f->data;
	long open = -1, close = -1;
	int depth = 0;
	size_t name_s, name_e;
	char *token = xstrndup(data + ts, te - ts), *file_abs, *dir = NULL;
	const char *wd;

	for (long i = (long)ts - 1; i >= 0; i--) {
		if (data[i] == ')')
			depth++;
		else if (data[i] == '(' && depth-- == 0) {
			open = i;
			break;
		}
	}
	depth = 0;
	for (size_t i = te; open >= 0 && i < f->len; i++) {
		if (data[i] == '(')
			depth++;
		else if (data[i] == ')' && depth-- == 0) {
			close = (long)i;
			break;
		}
	}
	if (open < 0 || close < 0) {
		free(token);
		return false;
	}
	name_e = (size_t)open;
	while (name_e > 0 && (data[name_e - 1] == ' ' || data[name_e - 1] == '\t'))
		name_e--;
	name_s = name_e;
	while (name_s > 0 && (data[name_s - 1] == '_' || (data[name_s - 1] >= 'a' && data[name_s - 1] <= 'z') ||
			      (data[name_s - 1] >= 'A' && data[name_s - 1] <= 'Z')))
		name_s--;
	if (!((name_e - name_s == 15 && strncasecmp(data + name_s, "execute_process", 15) == 0) ||
	      (name_e - name_s == 18 && strncasecmp(data + name_s, "add_custom_command", 18) == 0) ||
	      (name_e - name_s == 17 && strncasecmp(data + name_s, "add_custom_target", 17) == 0))) {
		free(token);
		return false;
	}
	file_abs = path_absolute(f->path);
	wd = memmem(data + open, (size_t)(close - open), "WORKING_DIRECTORY", 17);
	if (wd && file_abs) {
		const char *v = wd + 17, *ve;
		char *val;
		while (v < data + close && (*v == ' ' || *v == '\t' || *v == '\n'))
			v++;
		if (*v == '"') {
			v++;
			ve = memchr(v, '"', (size_t)(data + close - v));
			ve = ve ? ve : data + close;
		} else {
			ve = v;
			while (ve < data + close && *ve != ' ' && *ve != '\t' && *ve != '\n' && *ve != ')')
				ve++;
		}
		val = xstrndup(v, (size_t)(ve - v));
		dir = cmake_dir(sr, file_abs, val);
		out->how = xasprintf("%.*s(... %s ...) with WORKING_DIRECTORY %s", (int)(name_e - name_s), data + name_s,
				     token, val);
		if (!dir)
			out->unknown = xasprintf("WORKING_DIRECTORY %s is not known here", val);
		free(val);
	} else {
		out->how = xasprintf("%.*s(... %s ...)", (int)(name_e - name_s), data + name_s, token);
		out->unknown = xstrdup("it runs in CMake's build directory, which is not known here");
	}
	if (dir && !names_script(sr, dir, token) && !strchr(token, '$') && token[0] != '/') {
		free(dir);
		dir = NULL;
		out->unknown = xasprintf("%s does not lead to the script from its WORKING_DIRECTORY", token);
	}
	out->dir = dir;
	free(file_abs);
	free(token);
	return true;
}

/* ---- the search ---- */

/* The calls of the script in file `rel`; the first that tells the directory
 * goes to *known, the first that does not to *unknown. */
/* The calls of the script in the text of file `rel` (of `kind`); the first
 * that tells the directory goes to *known, the first that does not to
 * *unknown. */
static void scan_text(const struct search *sr, const char *rel, const struct src_file *f, enum runner_kind kind,
		      struct sh_start *known, struct finding *unknown, char **unknown_at)
{
	for (const char *p = f->data; !known->dir && (p = memmem(p, (size_t)(f->data + f->len - p), sr->base, sr->baselen));
	     p += sr->baselen) {
		size_t o = (size_t)(p - f->data), ts, te;
		char after = o + sr->baselen < f->len ? f->data[o + sr->baselen] : '\0';
		struct finding fd;
		bool is_call = false;
		if ((o > 0 && (path_char(f->data[o - 1]) && f->data[o - 1] != '/' && f->data[o - 1] != '}')) ||
		    ((after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') || (after >= '0' && after <= '9') ||
		     after == '_' || after == '-' || (after == '.' && o + sr->baselen + 1 < f->len &&
						      path_char(f->data[o + sr->baselen + 1]))))
			continue;
		token_at(f, o, sr->baselen, &ts, &te);
		memset(&fd, 0, sizeof(fd));
		switch (kind) {
		case R_SHELL: is_call = shell_call(sr, f->path, f->data, f->len, o, sr->root, &fd); break;
		case R_YAML: is_call = yaml_call(sr, f, o, &fd); break;
		case R_MAKE: is_call = make_call(sr, f, o, &fd); break;
		case R_PYTHON: is_call = python_call(sr, f, ts, te, &fd); break;
		case R_CMAKE: is_call = cmake_call(sr, f, ts, te, &fd); break;
		case R_NONE: break;
		}
		if (is_call && fd.dir) {
			known->dir = fd.dir;
			fd.dir = NULL;
			known->runner = xstrdup(rel);
			known->line = src_file_line(f, (uint32_t)o);
			known->why = xasprintf("%s:%zu runs it: %s", rel, known->line, fd.how ? fd.how : "");
		} else if (is_call && !unknown->how) {
			*unknown = fd;
			memset(&fd, 0, sizeof(fd));
			*unknown_at = xasprintf("%s:%zu", rel, src_file_line(f, (uint32_t)o));
		}
		finding_clear(&fd);
	}
}

/* The same of the file `rel` under the root, read when its name says it can
 * run a script. */
static void scan_file(const struct search *sr, const char *rel, struct sh_start *known, struct finding *unknown,
		      char **unknown_at)
{
	char *path = path_join(sr->root, rel), *abs;
	struct src_file *f;
	struct stat st;
	enum runner_kind kind;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MAX_RUNNER_BYTES) {
		free(path);
		return;
	}
	abs = path_absolute(path);
	if (abs && strcmp(abs, sr->script) == 0) {
		free(abs);
		free(path);
		return;
	}
	free(abs);
	kind = kind_of(rel, NULL);
	if (kind == R_NONE && strchr(strrchr(rel, '/') ? strrchr(rel, '/') : rel, '.')) {
		free(path);
		return;
	}
	f = src_file_load(path);
	if (f && (kind = kind_of(rel, f)) != R_NONE)
		scan_text(sr, rel, f, kind, known, unknown, unknown_at);
	src_file_free(f);
	free(path);
}

void sh_start_scan_text(const char *root_abs, const char *script_abs, const char *rel, const struct src_file *f,
			struct sh_start *out)
{
	struct search sr;
	struct finding unknown;
	char *unknown_at = NULL;
	enum runner_kind kind = kind_of(rel, f);

	memset(out, 0, sizeof(*out));
	memset(&unknown, 0, sizeof(unknown));
	sr.root = root_abs;
	sr.script = xstrdup(script_abs);
	sr.base = strrchr(sr.script, '/') ? strrchr(sr.script, '/') + 1 : sr.script;
	sr.baselen = strlen(sr.base);
	if (kind != R_NONE && sr.baselen)
		scan_text(&sr, rel, f, kind, out, &unknown, &unknown_at);
	if (!out->dir && unknown.how)
		out->why = xasprintf("%s runs it (%s), but %s", unknown_at, unknown.how,
				     unknown.unknown ? unknown.unknown : "from a directory not known here");
	finding_clear(&unknown);
	free(unknown_at);
	free(sr.script);
}

void sh_start_find(const char *root_abs, const char *script, struct sh_start *out)
{
	struct search sr;
	struct finding unknown;
	char *unknown_at = NULL, **files = NULL, *script_rel;
	size_t n = 0;
	struct diag quiet;
	static const char *const hidden[] = { ".github", ".gitlab", NULL };

	memset(out, 0, sizeof(*out));
	memset(&unknown, 0, sizeof(unknown));
	diag_init_quiet(&quiet);
	sr.root = root_abs;
	sr.script = path_absolute(script);
	if (!sr.script)
		sr.script = path_normalize(script);
	sr.base = strrchr(sr.script, '/') ? strrchr(sr.script, '/') + 1 : sr.script;
	sr.baselen = strlen(sr.base);
	if (path_walk(root_abs, &files, &n, &quiet) == 0)
		for (size_t i = 0; i < n && !out->dir; i++)
			scan_file(&sr, files[i], out, &unknown, &unknown_at);
	path_glob_free(files, n);
	/* the CI files the walk does not enter */
	for (int h = 0; hidden[h] && !out->dir; h++) {
		char *d = path_join(root_abs, hidden[h]);
		files = NULL;
		n = 0;
		if (access(d, F_OK) == 0 && path_walk(d, &files, &n, &quiet) == 0)
			for (size_t i = 0; i < n && !out->dir; i++) {
				char *rel = path_join(hidden[h], files[i]);
				scan_file(&sr, rel, out, &unknown, &unknown_at);
				free(rel);
			}
		path_glob_free(files, n);
		free(d);
	}
	if (!out->dir)
		scan_file(&sr, ".gitlab-ci.yml", out, &unknown, &unknown_at);
	script_rel = path_within(sr.script, root_abs) ? path_relative(root_abs, sr.script) : xstrdup(sr.script);
	if (!out->dir) {
		out->dir = xstrdup(root_abs);
		if (unknown.how)
			out->why = xasprintf("the project root: %s runs it (%s), but %s", unknown_at, unknown.how,
					     unknown.unknown ? unknown.unknown : "from a directory not known here");
		else
			out->why = xasprintf("the project root: nothing in the project runs %s", script_rel);
	}
	free(script_rel);
	finding_clear(&unknown);
	free(unknown_at);
	free(sr.script);
}

void sh_start_release(struct sh_start *s)
{
	free(s->dir);
	free(s->runner);
	free(s->why);
	memset(s, 0, sizeof(*s));
}
