/* The options of a project's command line, written back as shell words. */
#include <stdlib.h>

#include "project_cmdline.h"
#include "sh_word.h"
#include "xalloc.h"

char *project_cmd_options(const struct project_opts *o, bool without)
{
	char *qr = o->rules ? sh_quote(o->rules) : NULL, *qop = o->op ? sh_quote(o->op) : NULL;
	char *qw = without && o->without ? sh_quote(o->without) : NULL;
	char *t = xasprintf("%s%s%s%s%s%s", qw ? " --without " : "", qw ? qw : "", qr ? " --rules " : "", qr ? qr : "",
			    qop ? " --op " : "", qop ? qop : "");

	free(qr);
	free(qop);
	free(qw);
	return t;
}
