/* The C++ tokenizer of the source scanner: one pass over a buffer, driven by a
 * character-class table, producing a flat array of tokens (kind, byte span,
 * line). Comments and whitespace produce no tokens; preprocessor directives
 * are bracketed by CXX_TOK_PP_BEGIN / CXX_TOK_PP_END so that the layers above
 * can see them, or filter them out, without tokenizing twice. The fast scanner
 * of preprocess (preprocess_scan.h) is a second lexer on purpose, for speed:
 * it only tells code from comments, literals and directives, and jumps over
 * the rest. tests/lexers.test shows that both find the same trace points;
 * both read labels through string_literal.h. */
#ifndef AUTOTRACE_CXX_TOKEN_H
#define AUTOTRACE_CXX_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cxx_tok_kind {
	CXX_TOK_EOF = 0,  /* one at the end of every array, zero width */
	CXX_TOK_IDENT,
	CXX_TOK_KEYWORD,  /* `sub` is an enum cxx_keyword */
	CXX_TOK_NUMBER,   /* a pp-number: 0x1'000, 1.5e-3f, .5 */
	CXX_TOK_STRING,   /* "...", with prefix L/u/U/u8, or a raw string R"d(...)d" */
	CXX_TOK_CHAR,     /* '...', with prefix */
	CXX_TOK_HEADER,   /* <name> after #include */
	CXX_TOK_PUNCT,    /* `sub` is an enum cxx_punct */
	CXX_TOK_PP_BEGIN, /* the '#' starting a directive */
	CXX_TOK_PP_END,   /* zero width, where the directive's logical line ends */
	CXX_TOK_OTHER,    /* a stray byte (`@`, a lone `\`) */
};

/* X(enum-suffix, spelling): the keywords the scanner cares to tell apart. */
#define CXX_KEYWORD_LIST(X)                                                                   \
	X(alignas, "alignas") X(alignof, "alignof") X(asm, "asm") X(gnu_asm, "__asm__")           \
	X(gnu_asm2, "__asm") X(attribute, "__attribute__") X(auto, "auto") X(bool, "bool")         \
	X(break, "break") X(case, "case") X(catch, "catch") X(char, "char") X(class, "class")      \
	X(concept, "concept") X(const, "const") X(consteval, "consteval")                          \
	X(constexpr, "constexpr") X(const_cast, "const_cast") X(continue, "continue")              \
	X(decltype, "decltype") X(default, "default") X(delete, "delete") X(do, "do")              \
	X(double, "double") X(dynamic_cast, "dynamic_cast") X(else, "else") X(enum, "enum")        \
	X(explicit, "explicit") X(extern, "extern") X(false, "false") X(float, "float")            \
	X(for, "for") X(friend, "friend") X(goto, "goto") X(if, "if") X(inline, "inline")          \
	X(int, "int") X(long, "long") X(mutable, "mutable") X(namespace, "namespace")              \
	X(new, "new") X(noexcept, "noexcept") X(nullptr, "nullptr") X(operator, "operator")        \
	X(private, "private") X(protected, "protected") X(public, "public")                        \
	X(register, "register") X(reinterpret_cast, "reinterpret_cast") X(requires, "requires")    \
	X(return, "return") X(short, "short") X(signed, "signed") X(sizeof, "sizeof")              \
	X(static, "static") X(static_assert, "static_assert") X(static_cast, "static_cast")        \
	X(struct, "struct") X(switch, "switch") X(template, "template") X(this, "this")            \
	X(throw, "throw") X(true, "true") X(try, "try") X(typedef, "typedef")                      \
	X(typeid, "typeid") X(typename, "typename") X(union, "union") X(unsigned, "unsigned")      \
	X(using, "using") X(virtual, "virtual") X(void, "void") X(volatile, "volatile")            \
	X(gnu_volatile, "__volatile__") X(while, "while")

enum cxx_keyword {
	CXX_KW_NONE = 0,
#define CXX_KW_ENUM_(id, text) CXX_KW_##id,
	CXX_KEYWORD_LIST(CXX_KW_ENUM_)
#undef CXX_KW_ENUM_
	CXX_KW_COUNT
};

/* X(enum-suffix, spelling). `>>` and `>>>` are single tokens: the template
 * heuristics count them as two and three closing brackets. */
#define CXX_PUNCT_LIST(X)                                                                      \
	X(LBRACE, "{") X(RBRACE, "}") X(LPAREN, "(") X(RPAREN, ")") X(LBRACKET, "[")             \
	X(RBRACKET, "]") X(SEMI, ";") X(COMMA, ",") X(COLON, ":") X(SCOPE, "::") X(DOT, ".")     \
	X(ELLIPSIS, "...") X(ARROW, "->") X(ARROW_STAR, "->*") X(DOT_STAR, ".*")                  \
	X(QUESTION, "?") X(TILDE, "~") X(NOT, "!") X(NE, "!=") X(ASSIGN, "=") X(EQ, "==")        \
	X(LT, "<") X(LE, "<=") X(SHL, "<<") X(SHL_ASSIGN, "<<=") X(SPACESHIP, "<=>")             \
	X(LLL, "<<<") X(GT, ">") X(GE, ">=") X(SHR, ">>") X(SHR_ASSIGN, ">>=") X(GGG, ">>>")     \
	X(PLUS, "+") X(INC, "++") X(PLUS_ASSIGN, "+=") X(MINUS, "-") X(DEC, "--")                \
	X(MINUS_ASSIGN, "-=") X(STAR, "*") X(STAR_ASSIGN, "*=") X(SLASH, "/")                     \
	X(SLASH_ASSIGN, "/=") X(PERCENT, "%") X(PERCENT_ASSIGN, "%=") X(AMP, "&") X(AND, "&&")   \
	X(AMP_ASSIGN, "&=") X(PIPE, "|") X(OR, "||") X(PIPE_ASSIGN, "|=") X(CARET, "^")          \
	X(CARET_ASSIGN, "^=") X(HASH, "#") X(HASHHASH, "##")

enum cxx_punct {
	CXX_P_NONE = 0,
#define CXX_P_ENUM_(id, text) CXX_P_##id,
	CXX_PUNCT_LIST(CXX_P_ENUM_)
#undef CXX_P_ENUM_
	CXX_P_COUNT
};

enum {
	CXX_TF_BOL = 1,       /* first token of its line */
	CXX_TF_SPACE = 2,     /* whitespace or a comment precedes it */
	CXX_TF_RAW = 4,       /* a raw string literal */
	CXX_TF_UNTERM = 8,    /* a literal or comment that runs to the end of line/file */
};

struct cxx_token {
	uint32_t start;   /* byte range [start, end) in the buffer */
	uint32_t end;
	uint32_t line;    /* 1-based line of `start` */
	uint8_t kind;     /* enum cxx_tok_kind */
	uint8_t flags;    /* CXX_TF_* */
	uint16_t sub;     /* enum cxx_keyword or enum cxx_punct */
};
_Static_assert(offsetof(struct cxx_token, start) == 0, "token_search.h reads the start offset first");

/* A growable token array; `v[n]` is always a CXX_TOK_EOF token once filled. */
struct cxx_tokens {
	struct cxx_token *v;
	size_t n;
	size_t cap;
};

/* Tokenizes `len` bytes of `data` into `out` (whose previous contents are
 * replaced). Never fails: stray bytes become CXX_TOK_OTHER and unterminated
 * literals are marked CXX_TF_UNTERM. `len` must be below 4 GiB. */
void cxx_tokenize(const char *data, size_t len, struct cxx_tokens *out);

/* Frees the array (not the struct, which is usually on the stack). */
void cxx_tokens_release(struct cxx_tokens *toks);

const char *cxx_tok_kind_name(enum cxx_tok_kind kind);
const char *cxx_punct_text(enum cxx_punct p);
const char *cxx_keyword_text(enum cxx_keyword kw);

/* The keyword spelt by `len` bytes at `s`, or CXX_KW_NONE. */
enum cxx_keyword cxx_keyword_lookup(const char *s, size_t len);

static inline bool cxx_tok_punct(const struct cxx_token *t, enum cxx_punct p)
{
	return t->kind == CXX_TOK_PUNCT && t->sub == p;
}

static inline bool cxx_tok_kw(const struct cxx_token *t, enum cxx_keyword kw)
{
	return t->kind == CXX_TOK_KEYWORD && t->sub == kw;
}

/* Identifiers and keywords: tokens that need a space between them. */
static inline bool cxx_tok_wordlike(const struct cxx_token *t)
{
	return t->kind == CXX_TOK_IDENT || t->kind == CXX_TOK_KEYWORD || t->kind == CXX_TOK_NUMBER;
}

/* True when the `len` bytes at `s` equal NUL-terminated `lit`. */
static inline bool cxx_span_is(const char *s, size_t len, const char *lit)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (lit[i] == '\0' || lit[i] != s[i])
			return false;
	return lit[len] == '\0';
}

#endif
