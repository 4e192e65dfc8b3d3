/* Shell script scanner: simple commands, function bodies and groups, with the
 * quoting, comment, here-document and continuation rules of POSIX sh / bash
 * that build scripts use. One pass, byte offsets, no allocation per byte. */
#include "sh_scan.h"

#include <string.h>

#include "xalloc.h"

enum group_kind { G_FUNC, G_BRACE, G_PAREN };

struct group {
	enum group_kind kind;
	int func;            /* G_FUNC: its function */
	int case_depth;      /* case nesting when the group opened */
	int sub;             /* the subshell it opens (a '(' group), or -1 */
};

struct heredoc {
	uint32_t word_start, word_end; /* the delimiter, quotes removed */
	bool strip_tabs;
};

struct scanner {
	const char *s;
	size_t len;
	size_t i;
	struct sh_script *out;
	struct group stack[64];
	int depth;
	int case_depth;
	bool cmd_pos;          /* the next word starts a command */
	int pending_func;      /* a header was read; the next '{' or '(' opens its body */
	/* the simple command being read */
	struct sh_word *words;
	size_t nwords, cap_words;
	size_t line_first_cmd; /* first command recorded on the current logical line */
	struct heredoc here[8];
	int nhere;
	char delim[8][64];
};

static bool is_op_char(char c)
{
	return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Groups nested deeper than the stack are counted but not recorded. */
static int recorded_depth(const struct scanner *sc)
{
	int cap = (int)(sizeof(sc->stack) / sizeof(sc->stack[0]));
	return sc->depth < cap ? sc->depth : cap;
}

static int current_subshell(const struct scanner *sc)
{
	for (int d = recorded_depth(sc) - 1; d >= 0; d--)
		if (sc->stack[d].sub >= 0)
			return sc->stack[d].sub;
	return -1;
}

static int current_func(const struct scanner *sc)
{
	for (int d = recorded_depth(sc) - 1; d >= 0; d--)
		if (sc->stack[d].kind == G_FUNC)
			return sc->stack[d].func;
	return -1;
}

static uint32_t line_start_of(const struct scanner *sc, uint32_t off)
{
	while (off > 0 && sc->s[off - 1] != '\n')
		off--;
	return off;
}

static bool word_is(const struct scanner *sc, const struct sh_word *w, const char *kw)
{
	size_t n = strlen(kw);
	return w->end - w->start == n && memcmp(sc->s + w->start, kw, n) == 0;
}

/* Ends the simple command being read, recording it when it has words. */
static void end_command(struct scanner *sc)
{
	struct sh_script *o = sc->out;
	struct sh_cmd *c;

	if (sc->nwords == 0)
		return;
	XGROW(o->cmds, o->cap_cmds, o->ncmds + 1);
	c = &o->cmds[o->ncmds++];
	c->start = sc->words[0].start;
	c->end = sc->words[sc->nwords - 1].end;
	c->line_start = line_start_of(sc, c->start);
	c->line_end = (uint32_t)sc->len;
	c->func = current_func(sc);
	c->defines = -1;
	c->subshell = current_subshell(sc);
	c->words = xmalloc(sc->nwords * sizeof(*c->words));
	memcpy(c->words, sc->words, sc->nwords * sizeof(*c->words));
	c->nwords = sc->nwords;
	sc->nwords = 0;
}

/* Opens a group at sc->i; `subshell` for a '(' one. */
static void push_group(struct scanner *sc, enum group_kind kind, int func, bool subshell)
{
	if (sc->depth < (int)(sizeof(sc->stack) / sizeof(sc->stack[0]))) {
		struct sh_script *o = sc->out;
		int sub = -1;
		if (subshell) {
			XGROW(o->subshells, o->cap_subshells, o->nsubshells + 1);
			o->subshells[o->nsubshells].start = (uint32_t)sc->i;
			o->subshells[o->nsubshells].end = (uint32_t)sc->len;
			o->subshells[o->nsubshells].parent = current_subshell(sc);
			sub = (int)o->nsubshells++;
		}
		sc->stack[sc->depth].kind = kind;
		sc->stack[sc->depth].func = func;
		sc->stack[sc->depth].case_depth = sc->case_depth;
		sc->stack[sc->depth].sub = sub;
	}
	sc->depth++;
}

static void pop_group(struct scanner *sc, uint32_t end)
{
	if (sc->depth == 0)
		return;
	sc->depth--;
	if (sc->depth < 64 && sc->stack[sc->depth].kind == G_FUNC)
		sc->out->funcs[sc->stack[sc->depth].func].body_end = end;
	if (sc->depth < 64 && sc->stack[sc->depth].sub >= 0)
		sc->out->subshells[sc->stack[sc->depth].sub].end = end;
}

static int new_func(struct scanner *sc, uint32_t name_start, uint32_t name_end)
{
	struct sh_script *o = sc->out;
	struct sh_func *f;

	XGROW(o->funcs, o->cap_funcs, o->nfuncs + 1);
	f = &o->funcs[o->nfuncs];
	f->name = xstrndup(sc->s + name_start, name_end - name_start);
	f->start = sc->nwords ? sc->words[0].start : name_start;
	f->body_end = (uint32_t)sc->len;
	f->parent = current_func(sc);
	f->header_cmd = -1;
	return (int)o->nfuncs++;
}

/* Skips a quoted or nested construct starting at sc->i; returns false when it
 * runs off the end. */
static bool skip_nested(struct scanner *sc, char open);

static bool skip_dquote(struct scanner *sc)
{
	sc->i++; /* the opening quote */
	while (sc->i < sc->len) {
		char c = sc->s[sc->i];
		if (c == '\\') {
			sc->i += 2;
			continue;
		}
		if (c == '"') {
			sc->i++;
			return true;
		}
		if (c == '$' && sc->i + 1 < sc->len && (sc->s[sc->i + 1] == '(' || sc->s[sc->i + 1] == '{')) {
			sc->i++;
			if (!skip_nested(sc, sc->s[sc->i]))
				return false;
			continue;
		}
		if (c == '`') {
			if (!skip_nested(sc, '`'))
				return false;
			continue;
		}
		sc->i++;
	}
	return false;
}

static bool skip_squote(struct scanner *sc)
{
	const char *q = memchr(sc->s + sc->i + 1, '\'', sc->len - sc->i - 1);
	if (!q) {
		sc->i = sc->len;
		return false;
	}
	sc->i = (size_t)(q - sc->s) + 1;
	return true;
}

static bool skip_nested(struct scanner *sc, char open)
{
	char close = open == '(' ? ')' : open == '{' ? '}' : '`';
	int depth = 1;

	sc->i++;
	while (sc->i < sc->len) {
		char c = sc->s[sc->i];
		if (c == '\\') {
			sc->i += 2;
			continue;
		}
		if (open != '`' && c == '\'') {
			if (!skip_squote(sc))
				return false;
			continue;
		}
		if (open != '`' && c == '"') {
			if (!skip_dquote(sc))
				return false;
			continue;
		}
		if (c == close && open != '`') {
			sc->i++;
			if (--depth == 0)
				return true;
			continue;
		}
		if (c == close) {
			sc->i++;
			return true;
		}
		if (c == open && open != '`')
			depth++;
		sc->i++;
	}
	return false;
}

static void note_unclosed(struct scanner *sc, uint32_t at, const char *what)
{
	if (sc->out->unclosed == UINT32_MAX) {
		sc->out->unclosed = at;
		sc->out->unclosed_what = what;
	}
}

/* Reads one word starting at sc->i. */
static struct sh_word read_word(struct scanner *sc)
{
	struct sh_word w;

	w.start = (uint32_t)sc->i;
	while (sc->i < sc->len) {
		char c = sc->s[sc->i];
		uint32_t at = (uint32_t)sc->i;
		if (is_blank(c) || c == '\n' || is_op_char(c))
			break;
		if (c == '\\') {
			sc->i += 2;
			continue;
		}
		if (c == '\'') {
			if (!skip_squote(sc))
				note_unclosed(sc, at, "single quote");
			continue;
		}
		if (c == '"') {
			if (!skip_dquote(sc))
				note_unclosed(sc, at, "double quote");
			continue;
		}
		if (c == '`') {
			if (!skip_nested(sc, '`'))
				note_unclosed(sc, at, "backquote");
			continue;
		}
		if (c == '$' && sc->i + 1 < sc->len && (sc->s[sc->i + 1] == '(' || sc->s[sc->i + 1] == '{')) {
			sc->i++;
			if (!skip_nested(sc, sc->s[sc->i]))
				note_unclosed(sc, at, sc->s[at + 1] == '(' ? "'$('" : "'${'");
			continue;
		}
		sc->i++;
	}
	if (sc->i > sc->len)
		sc->i = sc->len;
	w.end = (uint32_t)sc->i;
	return w;
}

static void add_word(struct scanner *sc, struct sh_word w)
{
	XGROW(sc->words, sc->cap_words, sc->nwords + 1);
	sc->words[sc->nwords++] = w;
}

/* Skips here-document bodies queued on the line just ended. */
static void skip_heredocs(struct scanner *sc)
{
	for (int h = 0; h < sc->nhere; h++) {
		const char *d = sc->delim[h];
		size_t dl = strlen(d);
		while (sc->i < sc->len) {
			size_t ls = sc->i, le;
			const char *nl = memchr(sc->s + ls, '\n', sc->len - ls);
			le = nl ? (size_t)(nl - sc->s) : sc->len;
			sc->i = nl ? le + 1 : sc->len;
			if (sc->here[h].strip_tabs)
				while (ls < le && sc->s[ls] == '\t')
					ls++;
			if (le - ls == dl && memcmp(sc->s + ls, d, dl) == 0)
				break;
		}
	}
	sc->nhere = 0;
}

static void queue_heredoc(struct scanner *sc, bool strip_tabs)
{
	struct sh_word w;
	size_t o = 0;

	while (sc->i < sc->len && is_blank(sc->s[sc->i]))
		sc->i++;
	w = read_word(sc);
	if (sc->nhere >= 8)
		return;
	for (uint32_t k = w.start; k < w.end && o < 63; k++)
		if (sc->s[k] != '\'' && sc->s[k] != '"' && sc->s[k] != '\\')
			sc->delim[sc->nhere][o++] = sc->s[k];
	sc->delim[sc->nhere][o] = '\0';
	sc->here[sc->nhere].strip_tabs = strip_tabs;
	sc->nhere++;
}

/* Command-position words that introduce another command rather than being one. */
static bool is_prefix_keyword(const struct scanner *sc, const struct sh_word *w)
{
	static const char *const kws[] = { "if", "then", "else", "elif", "while", "until", "do", "!", "time", NULL };
	for (int k = 0; kws[k]; k++)
		if (word_is(sc, w, kws[k]))
			return true;
	return false;
}

static bool is_end_keyword(const struct scanner *sc, const struct sh_word *w)
{
	return word_is(sc, w, "fi") || word_is(sc, w, "done") || word_is(sc, w, "esac");
}

/* The word after a redirection operator (`> log`, `2>&1`): read and dropped. */
static void skip_redirect_target(struct scanner *sc)
{
	while (sc->i < sc->len && is_blank(sc->s[sc->i]))
		sc->i++;
	if (sc->i < sc->len && sc->s[sc->i] != '\n' && !is_op_char(sc->s[sc->i]))
		(void)read_word(sc);
}

static void newline(struct scanner *sc)
{
	end_command(sc);
	sc->i++;
	skip_heredocs(sc);
	for (size_t k = sc->line_first_cmd; k < sc->out->ncmds; k++)
		sc->out->cmds[k].line_end = (uint32_t)sc->i;
	sc->line_first_cmd = sc->out->ncmds;
	sc->cmd_pos = true;
}

/* At command position: a definition `name()` / `function name`? */
static bool try_function_header(struct scanner *sc, struct sh_word w)
{
	size_t j = sc->i, saved = sc->i;
	bool kw = word_is(sc, &w, "function");
	struct sh_word name = w;
	int f;

	if (kw) {
		while (j < sc->len && is_blank(sc->s[j]))
			j++;
		sc->i = j;
		name = read_word(sc);
		if (name.end == name.start) {
			sc->i = saved;
			return false;
		}
		j = sc->i;
	}
	while (j < sc->len && is_blank(sc->s[j]))
		j++;
	if (j < sc->len && sc->s[j] == '(') {
		size_t k = j + 1;
		while (k < sc->len && is_blank(sc->s[k]))
			k++;
		if (k >= sc->len || sc->s[k] != ')') {
			sc->i = saved;
			return false;
		}
		j = k + 1;
	} else if (!kw) {
		return false;
	}
	add_word(sc, w);
	if (kw)
		add_word(sc, name);
	f = new_func(sc, name.start, name.end);
	end_command(sc);
	sc->out->cmds[sc->out->ncmds - 1].defines = f;
	sc->out->funcs[f].header_cmd = (int)sc->out->ncmds - 1;
	sc->pending_func = f;
	sc->i = j;
	return true;
}

void sh_scan(const char *data, size_t len, struct sh_script *out)
{
	struct scanner sc;

	memset(out, 0, sizeof(*out));
	out->data = data;
	out->len = len;
	out->unclosed = UINT32_MAX;
	memset(&sc, 0, sizeof(sc));
	sc.s = data;
	sc.len = len;
	sc.out = out;
	sc.cmd_pos = true;
	sc.pending_func = -1;

	while (sc.i < sc.len) {
		char c = sc.s[sc.i];
		if (is_blank(c)) {
			sc.i++;
			continue;
		}
		if (c == '\\' && sc.i + 1 < sc.len && sc.s[sc.i + 1] == '\n') {
			sc.i += 2; /* continuation */
			continue;
		}
		if (c == '\n') {
			newline(&sc);
			continue;
		}
		if (c == '#') {
			const char *nl = memchr(sc.s + sc.i, '\n', sc.len - sc.i);
			sc.i = nl ? (size_t)(nl - sc.s) : sc.len;
			continue;
		}
		if (c == '&' && sc.i + 1 < sc.len && sc.s[sc.i + 1] == '>') {
			/* &>file, &>>file: a redirection, not a separator */
			sc.i += sc.i + 2 < sc.len && sc.s[sc.i + 2] == '>' ? 3 : 2;
			skip_redirect_target(&sc);
			continue;
		}
		if (c == ';' || c == '&' || c == '|') {
			end_command(&sc);
			while (sc.i < sc.len && (sc.s[sc.i] == ';' || sc.s[sc.i] == '&' || sc.s[sc.i] == '|'))
				sc.i++;
			sc.cmd_pos = true;
			continue;
		}
		if (c == '<' || c == '>') {
			bool heredoc = c == '<' && sc.i + 1 < sc.len && sc.s[sc.i + 1] == '<' &&
				       (sc.i + 2 >= sc.len || sc.s[sc.i + 2] != '<');
			if (heredoc) {
				bool strip = sc.i + 2 < sc.len && sc.s[sc.i + 2] == '-';
				sc.i += strip ? 3 : 2;
				queue_heredoc(&sc, strip);
				continue;
			}
			/* `2>&1`: the descriptor number glued to the operator is not a word */
			if (sc.nwords && sc.words[sc.nwords - 1].end == sc.i) {
				const struct sh_word *lw = &sc.words[sc.nwords - 1];
				bool digits = lw->end > lw->start;
				for (uint32_t k = lw->start; k < lw->end; k++)
					digits = digits && sc.s[k] >= '0' && sc.s[k] <= '9';
				if (digits)
					sc.nwords--;
			}
			while (sc.i < sc.len && (sc.s[sc.i] == '<' || sc.s[sc.i] == '>' || sc.s[sc.i] == '&' || sc.s[sc.i] == '|'))
				sc.i++;
			skip_redirect_target(&sc); /* redirections are not arguments of the command */
			continue;
		}
		if (c == '(') {
			end_command(&sc);
			push_group(&sc, sc.pending_func >= 0 ? G_FUNC : G_PAREN, sc.pending_func, true);
			sc.pending_func = -1;
			sc.i++;
			sc.cmd_pos = true;
			continue;
		}
		if (c == ')') {
			end_command(&sc);
			if (sc.depth > 0 && sc.depth <= 64 && sc.stack[sc.depth - 1].kind != G_BRACE &&
			    sc.stack[sc.depth - 1].case_depth == sc.case_depth)
				pop_group(&sc, (uint32_t)sc.i + 1);
			/* otherwise: the end of a case pattern */
			sc.i++;
			sc.cmd_pos = true;
			continue;
		}
		{
			struct sh_word w = read_word(&sc);
			if (w.end == w.start) { /* a lone byte read_word does not take */
				sc.i++;
				continue;
			}
			if (sc.cmd_pos && sc.nwords == 0) {
				if (word_is(&sc, &w, "{")) {
					push_group(&sc, sc.pending_func >= 0 ? G_FUNC : G_BRACE, sc.pending_func, false);
					sc.pending_func = -1;
					continue;
				}
				if (word_is(&sc, &w, "}")) {
					pop_group(&sc, w.end);
					sc.cmd_pos = false;
					continue;
				}
				if (is_prefix_keyword(&sc, &w))
					continue;
				if (is_end_keyword(&sc, &w)) {
					if (word_is(&sc, &w, "esac") && sc.case_depth > 0)
						sc.case_depth--;
					sc.cmd_pos = false;
					continue;
				}
				if (word_is(&sc, &w, "case"))
					sc.case_depth++;
				if (try_function_header(&sc, w))
					continue;
			}
			add_word(&sc, w);
			sc.cmd_pos = false;
			/* `case WORD in` and `for x in ...`: the words after `in` are not commands */
		}
	}
	end_command(&sc);
	for (size_t k = sc.line_first_cmd; k < out->ncmds; k++)
		out->cmds[k].line_end = (uint32_t)len;
	if (sc.depth > 0)
		note_unclosed(&sc, (uint32_t)len, "'{' or '(' group");
	free(sc.words);
}

void sh_script_release(struct sh_script *s)
{
	for (size_t i = 0; i < s->ncmds; i++)
		free(s->cmds[i].words);
	for (size_t i = 0; i < s->nfuncs; i++)
		free(s->funcs[i].name);
	free(s->cmds);
	free(s->funcs);
	free(s->subshells);
	memset(s, 0, sizeof(*s));
}

int sh_find_func(const struct sh_script *s, const char *name, size_t len)
{
	for (size_t i = s->nfuncs; i-- > 0;)
		if (strlen(s->funcs[i].name) == len && memcmp(s->funcs[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

long sh_cmd_word(const struct sh_script *s, const struct sh_cmd *c)
{
	for (size_t k = 0; k < c->nwords; k++) {
		const char *w = s->data + c->words[k].start;
		size_t n = c->words[k].end - c->words[k].start, j = 0;
		while (j < n && (w[j] == '_' || (w[j] >= 'A' && w[j] <= 'Z') || (w[j] >= 'a' && w[j] <= 'z') ||
				 (j > 0 && w[j] >= '0' && w[j] <= '9')))
			j++;
		if (!(j > 0 && j < n && w[j] == '='))
			return (long)k;
	}
	return -1;
}

static const struct sh_word *command_word(const struct sh_script *s, const struct sh_cmd *c)
{
	long k = sh_cmd_word(s, c);

	return k < 0 ? NULL : &c->words[k];
}

bool sh_cmd_reachable(const struct sh_script *s, size_t cmd)
{
	bool *live = xcalloc(s->nfuncs ? s->nfuncs : 1, sizeof(*live));
	bool changed = true, result;

	while (changed) {
		changed = false;
		for (size_t k = 0; k < s->ncmds; k++) {
			const struct sh_cmd *c = &s->cmds[k];
			const struct sh_word *w;
			int f;
			if (c->defines >= 0 || (c->func >= 0 && !live[c->func]))
				continue;
			w = command_word(s, c);
			if (!w)
				continue;
			f = sh_find_func(s, s->data + w->start, w->end - w->start);
			if (f >= 0 && f != c->func && !live[f]) {
				live[f] = true;
				changed = true;
			}
		}
	}
	result = s->cmds[cmd].defines < 0 && (s->cmds[cmd].func < 0 || live[s->cmds[cmd].func]);
	free(live);
	return result;
}

bool sh_cmd_visible_at(const struct sh_script *s, size_t cmd, uint32_t at)
{
	for (int g = s->cmds[cmd].subshell; g >= 0; g = s->subshells[g].parent)
		if (at < s->subshells[g].start || at >= s->subshells[g].end)
			return false;
	return true;
}

char *sh_word_text(const struct sh_script *s, const struct sh_word *w)
{
	return xstrndup(s->data + w->start, w->end - w->start);
}
