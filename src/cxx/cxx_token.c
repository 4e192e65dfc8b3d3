/* The C++ tokenizer: a single pass over the buffer, a character-class table,
 * no allocation per token beyond the growth of one array. */
#include "cxx_token.h"
#include "string_literal.h"

#include <string.h>

#include "xalloc.h"

enum {
	CC_SPACE = 1,   /* blanks other than newline */
	CC_IDSTART = 2, /* letters, '_', '$' and every byte of a UTF-8 sequence */
	CC_IDCONT = 4,
	CC_DIGIT = 8,
	CC_NUMCONT = 16, /* what may follow inside a pp-number */
};

static unsigned char cclass[256];

static void cclass_init(void)
{
	if (cclass['a'])
		return;
	for (int c = 0; c < 256; c++) {
		unsigned char k = 0;
		if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r')
			k |= CC_SPACE;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80)
			k |= CC_IDSTART | CC_IDCONT | CC_NUMCONT;
		if (c >= '0' && c <= '9')
			k |= CC_DIGIT | CC_IDCONT | CC_NUMCONT;
		if (c == '.')
			k |= CC_NUMCONT;
		cclass[c] = k;
	}
}

static const char *const punct_text[] = {
	"",
#define CXX_P_TEXT_(id, text) text,
	CXX_PUNCT_LIST(CXX_P_TEXT_)
#undef CXX_P_TEXT_
};

static const char *const keyword_text[] = {
	"",
#define CXX_KW_TEXT_(id, text) text,
	CXX_KEYWORD_LIST(CXX_KW_TEXT_)
#undef CXX_KW_TEXT_
};

const char *cxx_punct_text(enum cxx_punct p)
{
	return (unsigned)p < CXX_P_COUNT ? punct_text[p] : "";
}

const char *cxx_keyword_text(enum cxx_keyword kw)
{
	return (unsigned)kw < CXX_KW_COUNT ? keyword_text[kw] : "";
}

const char *cxx_tok_kind_name(enum cxx_tok_kind kind)
{
	static const char *const names[] = { "eof", "ident", "keyword", "number", "string", "char",
					     "header", "punct", "pp-begin", "pp-end", "other" };
	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

/* Keyword lookup: an open-addressing table filled on first use. */
#define KW_SLOTS 512
static uint8_t kw_table[KW_SLOTS];

static unsigned kw_hash(const char *s, size_t len)
{
	unsigned h = (unsigned)len * 131u;

	for (size_t i = 0; i < len; i++)
		h = h * 31u + (unsigned char)s[i];
	return h & (KW_SLOTS - 1);
}

static void kw_init(void)
{
	if (kw_table[kw_hash("if", 2)])
		return;
	for (unsigned k = 1; k < CXX_KW_COUNT; k++) {
		unsigned h = kw_hash(keyword_text[k], strlen(keyword_text[k]));
		while (kw_table[h])
			h = (h + 1) & (KW_SLOTS - 1);
		kw_table[h] = (uint8_t)k;
	}
}

enum cxx_keyword cxx_keyword_lookup(const char *s, size_t len)
{
	unsigned h;

	if (len < 2 || len > 16 || !((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return CXX_KW_NONE;
	kw_init();
	for (h = kw_hash(s, len); kw_table[h]; h = (h + 1) & (KW_SLOTS - 1)) {
		const char *k = keyword_text[kw_table[h]];
		if (k[0] == s[0] && cxx_span_is(s, len, k))
			return (enum cxx_keyword)kw_table[h];
	}
	return CXX_KW_NONE;
}

struct lexer {
	const char *s;
	size_t len;
	size_t pos;
	uint32_t line;
	struct cxx_tokens *out;
};

static inline void emit(struct lexer *lx, enum cxx_tok_kind kind, unsigned sub, size_t start, uint32_t line,
		 unsigned flags)
{
	struct cxx_tokens *o = lx->out;
	struct cxx_token *t;

	XGROW(o->v, o->cap, o->n + 2);
	t = &o->v[o->n++];
	t->start = (uint32_t)start;
	t->end = (uint32_t)lx->pos;
	t->line = line;
	t->kind = (uint8_t)kind;
	t->flags = (uint8_t)flags;
	t->sub = (uint16_t)sub;
}

/* Length of a backslash-newline at `p` (0 when there is none). Blanks
 * between the backslash and the newline still splice the lines, as GCC and
 * clang read them (with a warning): a macro whose `\\` is followed by
 * trailing spaces goes on. */
static size_t splice_at(const struct lexer *lx, size_t p)
{
	size_t q = p + 1;

	if (lx->s[p] != '\\')
		return 0;
	while (q < lx->len && (lx->s[q] == ' ' || lx->s[q] == '\t' || lx->s[q] == '\f' || lx->s[q] == '\v'))
		q++;
	if (q < lx->len && lx->s[q] == '\n')
		return q + 1 - p;
	if (q + 1 < lx->len && lx->s[q] == '\r' && lx->s[q + 1] == '\n')
		return q + 2 - p;
	return 0;
}

/* A `//` comment: up to (not including) the newline, spliced lines included. */
static void skip_line_comment(struct lexer *lx)
{
	const char *s = lx->s;

	lx->pos += 2;
	while (lx->pos < lx->len) {
		const char *nl = memchr(s + lx->pos, '\n', lx->len - lx->pos);
		size_t e = nl ? (size_t)(nl - s) : lx->len;
		size_t b = e;
		if (!nl) {
			lx->pos = lx->len;
			return;
		}
		if (b > lx->pos && s[b - 1] == '\r')
			b--;
		while (b > lx->pos + 1 && (s[b - 1] == ' ' || s[b - 1] == '\t'))
			b--; /* blanks after the backslash still splice (splice_at) */
		if (b > lx->pos && s[b - 1] == '\\') {
			lx->pos = e + 1;
			lx->line++;
			continue;
		}
		lx->pos = e;
		return;
	}
}

/* A block comment; returns false when it is unterminated. */
static bool skip_block_comment(struct lexer *lx)
{
	const char *s = lx->s;
	size_t p = lx->pos + 2;

	while (p < lx->len) {
		char c = s[p];
		if (c == '*' && p + 1 < lx->len && s[p + 1] == '/') {
			lx->pos = p + 2;
			return true;
		}
		if (c == '\n')
			lx->line++;
		p++;
	}
	lx->pos = lx->len;
	return false;
}

/* A quoted literal from the opening quote at lx->pos; stops at an unescaped
 * newline (unterminated) like a compiler would. Line splices continue it,
 * and come first: a backslash escapes the character after the splices that
 * follow it (string_literal_splice). Returns CXX_TF_UNTERM or 0. */
static unsigned scan_quoted(struct lexer *lx, char q)
{
	const char *s = lx->s, *end = lx->s + lx->len;
	size_t p = lx->pos + 1, sp;

	while (p < lx->len) {
		char c = s[p];
		if (c == q) {
			lx->pos = p + 1;
			return 0;
		}
		if (c == '\\' && p + 1 < lx->len) {
			if ((sp = string_literal_splice(s + p, end)) != 0) {
				lx->line++;
				p += sp;
				continue;
			}
			for (p++; (sp = string_literal_splice(s + p, end)) != 0; p += sp)
				lx->line++;
			if (p < lx->len && s[p] == '\n')
				break; /* a newline is no escape: unterminated */
			p++;
			continue;
		}
		if (c == '\n')
			break;
		p++;
	}
	lx->pos = p < lx->len ? p : lx->len;
	return CXX_TF_UNTERM;
}

/* A raw string from the `"` at lx->pos; false when it is not well formed
 * (the delimiter is too long or has no '('), in which case nothing moves. */
static bool scan_raw(struct lexer *lx, unsigned *flags)
{
	const char *s = lx->s;
	size_t p = lx->pos + 1, d0 = p, dlen;

	while (p < lx->len && p - d0 <= 16 && s[p] != '(') {
		char c = s[p];
		if (c == ' ' || c == ')' || c == '\\' || c == '\n' || c == '"')
			return false;
		p++;
	}
	if (p >= lx->len || s[p] != '(')
		return false;
	dlen = p - d0;
	for (p++; p < lx->len; p++) {
		if (s[p] == '\n')
			lx->line++;
		else if (s[p] == ')' && p + 1 + dlen < lx->len &&
			 memcmp(s + p + 1, s + d0, dlen) == 0 && s[p + 1 + dlen] == '"') {
			lx->pos = p + dlen + 2;
			*flags |= CXX_TF_RAW;
			return true;
		}
	}
	lx->pos = lx->len;
	*flags |= CXX_TF_RAW | CXX_TF_UNTERM;
	return true;
}

static void scan_number(struct lexer *lx)
{
	const char *s = lx->s;
	size_t p = lx->pos + 1;

	while (p < lx->len) {
		unsigned char c = (unsigned char)s[p];
		if (cclass[c] & CC_NUMCONT) {
			if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && p + 1 < lx->len &&
			    (s[p + 1] == '+' || s[p + 1] == '-'))
				p++;
			p++;
		} else if (c == '\'' && p + 1 < lx->len && (cclass[(unsigned char)s[p + 1]] & CC_IDCONT)) {
			p += 2; /* digit separator */
		} else {
			break;
		}
	}
	lx->pos = p;
}

/* The punctuator at lx->pos (at least one byte is consumed). */
static enum cxx_punct scan_punct(struct lexer *lx)
{
	const char *s = lx->s + lx->pos;
	size_t left = lx->len - lx->pos;
	char c1 = left > 1 ? s[1] : 0, c2 = left > 2 ? s[2] : 0;
	enum cxx_punct p = CXX_P_NONE;
	size_t n = 1;

#define TWO(ch, res) if (c1 == (ch)) { p = (res); n = 2; }
	switch (s[0]) {
	case '{': p = CXX_P_LBRACE; break;
	case '}': p = CXX_P_RBRACE; break;
	case '(': p = CXX_P_LPAREN; break;
	case ')': p = CXX_P_RPAREN; break;
	case '[': p = CXX_P_LBRACKET; break;
	case ']': p = CXX_P_RBRACKET; break;
	case ';': p = CXX_P_SEMI; break;
	case ',': p = CXX_P_COMMA; break;
	case '?': p = CXX_P_QUESTION; break;
	case '~': p = CXX_P_TILDE; break;
	case ':': p = CXX_P_COLON; TWO(':', CXX_P_SCOPE); break;
	case '.':
		p = CXX_P_DOT;
		if (c1 == '.' && c2 == '.') { p = CXX_P_ELLIPSIS; n = 3; }
		else TWO('*', CXX_P_DOT_STAR);
		break;
	case '-':
		p = CXX_P_MINUS;
		if (c1 == '>' && c2 == '*') { p = CXX_P_ARROW_STAR; n = 3; }
		else TWO('>', CXX_P_ARROW) else TWO('-', CXX_P_DEC) else TWO('=', CXX_P_MINUS_ASSIGN);
		break;
	case '!': p = CXX_P_NOT; TWO('=', CXX_P_NE); break;
	case '=': p = CXX_P_ASSIGN; TWO('=', CXX_P_EQ); break;
	case '<':
		p = CXX_P_LT;
		if (c1 == '<' && c2 == '<') { p = CXX_P_LLL; n = 3; }
		else if (c1 == '<' && c2 == '=') { p = CXX_P_SHL_ASSIGN; n = 3; }
		else if (c1 == '=' && c2 == '>') { p = CXX_P_SPACESHIP; n = 3; }
		else TWO('<', CXX_P_SHL) else TWO('=', CXX_P_LE);
		break;
	case '>':
		p = CXX_P_GT;
		if (c1 == '>' && c2 == '>') { p = CXX_P_GGG; n = 3; }
		else if (c1 == '>' && c2 == '=') { p = CXX_P_SHR_ASSIGN; n = 3; }
		else TWO('>', CXX_P_SHR) else TWO('=', CXX_P_GE);
		break;
	case '+': p = CXX_P_PLUS; TWO('+', CXX_P_INC) else TWO('=', CXX_P_PLUS_ASSIGN); break;
	case '*': p = CXX_P_STAR; TWO('=', CXX_P_STAR_ASSIGN); break;
	case '/': p = CXX_P_SLASH; TWO('=', CXX_P_SLASH_ASSIGN); break;
	case '%': p = CXX_P_PERCENT; TWO('=', CXX_P_PERCENT_ASSIGN); break;
	case '&': p = CXX_P_AMP; TWO('&', CXX_P_AND) else TWO('=', CXX_P_AMP_ASSIGN); break;
	case '|': p = CXX_P_PIPE; TWO('|', CXX_P_OR) else TWO('=', CXX_P_PIPE_ASSIGN); break;
	case '^': p = CXX_P_CARET; TWO('=', CXX_P_CARET_ASSIGN); break;
	case '#': p = CXX_P_HASH; TWO('#', CXX_P_HASHHASH); break;
	default: break;
	}
#undef TWO
	lx->pos += n;
	return p;
}

/* Literal prefixes: the identifier just read is `L`, `u`, `U`, `u8` (quote
 * follows) or one of those followed by `R` (raw string follows). */
static int literal_prefix(const char *s, size_t len)
{
	if (len == 1 && (s[0] == 'L' || s[0] == 'u' || s[0] == 'U'))
		return 1;
	if (len == 2 && s[0] == 'u' && s[1] == '8')
		return 1;
	if (s[len - 1] == 'R' && (len == 1 || literal_prefix(s, len - 1) == 1))
		return 2;
	return 0;
}

void cxx_tokenize(const char *data, size_t len, struct cxx_tokens *out)
{
	struct lexer lx = { data, len, 0, 1, out };
	const char *s = data;
	bool bol = true, space = false, in_pp = false, want_header = false;
	int pp_index = -1; /* tokens since PP_BEGIN, -1 outside a directive */

	cclass_init();
	kw_init();
	out->n = 0;
	XGROW(out->v, out->cap, len / 3 + 16); /* about one token per 4-5 bytes of kernel code */

	while (lx.pos < len) {
		unsigned char c = (unsigned char)s[lx.pos];
		size_t start = lx.pos, sp;
		uint32_t line = lx.line;
		unsigned flags = (bol ? CXX_TF_BOL : 0) | (space ? CXX_TF_SPACE : 0);

		if (cclass[c] & CC_SPACE) {
			lx.pos++;
			space = true;
			continue;
		}
		if (c == '\n') {
			if (in_pp) {
				emit(&lx, CXX_TOK_PP_END, 0, lx.pos, lx.line, 0);
				in_pp = false;
				pp_index = -1;
			}
			lx.pos++;
			lx.line++;
			bol = true;
			space = true;
			continue;
		}
		if ((sp = splice_at(&lx, lx.pos)) != 0) {
			lx.pos += sp;
			lx.line++;
			space = true;
			continue;
		}
		if (c == '/' && lx.pos + 1 < len && (s[lx.pos + 1] == '/' || s[lx.pos + 1] == '*')) {
			if (s[lx.pos + 1] == '/')
				skip_line_comment(&lx);
			else
				skip_block_comment(&lx);
			space = true;
			continue;
		}

		if (c == '#' && bol && !in_pp) {
			lx.pos++;
			emit(&lx, CXX_TOK_PP_BEGIN, 0, start, line, flags);
			in_pp = true;
			pp_index = 1; /* the next token is the directive name */
			bol = false;
			space = false;
			continue;
		}

		if (cclass[c] & CC_IDSTART) {
			size_t p = lx.pos + 1;
			int pre;
			while (p < len && (cclass[(unsigned char)s[p]] & CC_IDCONT))
				p++;
			lx.pos = p;
			if (p < len && (s[p] == '"' || s[p] == '\'') &&
			    (pre = literal_prefix(s + start, p - start)) != 0) {
				if (pre == 2 && s[p] == '"') {
					if (scan_raw(&lx, &flags)) {
						emit(&lx, CXX_TOK_STRING, 0, start, line, flags);
						goto next;
					}
				} else if (pre == 1) {
					flags |= scan_quoted(&lx, s[p]);
					emit(&lx, s[p] == '"' ? CXX_TOK_STRING : CXX_TOK_CHAR, 0, start, line, flags);
					goto next;
				}
			}
			{
				enum cxx_keyword kw = cxx_keyword_lookup(s + start, p - start);
				if (kw)
					emit(&lx, CXX_TOK_KEYWORD, kw, start, line, flags);
				else
					emit(&lx, CXX_TOK_IDENT, 0, start, line, flags);
			}
			if (pp_index == 1 && (cxx_span_is(s + start, p - start, "include") ||
					      cxx_span_is(s + start, p - start, "include_next") ||
					      cxx_span_is(s + start, p - start, "import")))
				want_header = true;
			goto next;
		}
		if ((cclass[c] & CC_DIGIT) ||
		    (c == '.' && lx.pos + 1 < len && (cclass[(unsigned char)s[lx.pos + 1]] & CC_DIGIT))) {
			scan_number(&lx);
			emit(&lx, CXX_TOK_NUMBER, 0, start, line, flags);
			goto next;
		}
		if (c == '"' || c == '\'') {
			flags |= scan_quoted(&lx, (char)c);
			emit(&lx, c == '"' ? CXX_TOK_STRING : CXX_TOK_CHAR, 0, start, line, flags);
			goto next;
		}
		if (c == '<' && want_header) {
			const char *e = memchr(s + lx.pos, '>', len - lx.pos);
			const char *nl = memchr(s + lx.pos, '\n', len - lx.pos);
			if (e && (!nl || e < nl)) {
				lx.pos = (size_t)(e - s) + 1;
				emit(&lx, CXX_TOK_HEADER, 0, start, line, flags);
				goto next;
			}
		}
		{
			enum cxx_punct p = scan_punct(&lx);
			if (p)
				emit(&lx, CXX_TOK_PUNCT, p, start, line, flags);
			else if (out->n && out->v[out->n - 1].kind == CXX_TOK_OTHER && out->v[out->n - 1].end == start)
				/* a run of stray bytes is one token: a file of zeros is not
				   16 bytes of token per byte */
				out->v[out->n - 1].end = (uint32_t)lx.pos;
			else
				emit(&lx, CXX_TOK_OTHER, 0, start, line, flags);
		}
next:
		if (pp_index >= 0)
			pp_index++;
		if (pp_index != 2)
			want_header = false; /* only the token after `include` */
		bol = false;
		space = false;
	}
	if (in_pp)
		emit(&lx, CXX_TOK_PP_END, 0, len, lx.line, 0);
	XGROW(out->v, out->cap, out->n + 1);
	out->v[out->n].start = out->v[out->n].end = (uint32_t)len;
	out->v[out->n].line = lx.line;
	out->v[out->n].kind = CXX_TOK_EOF;
	out->v[out->n].flags = 0;
	out->v[out->n].sub = 0;
}

void cxx_tokens_release(struct cxx_tokens *toks)
{
	if (!toks)
		return;
	free(toks->v);
	toks->v = NULL;
	toks->n = toks->cap = 0;
}
