/* Exit statuses shared by every command: 0 ok, 1 findings (a check or gate
 * failed, apply --check would change files), 2 bad usage or bad input,
 * 3 internal error (autotrace(1) EXIT STATUS). */
#ifndef AUTOTRACE_EXIT_STATUS_H
#define AUTOTRACE_EXIT_STATUS_H

enum {
	EXIT_OK = 0,        /* success */
	EXIT_FINDINGS = 1,  /* checks failed, or apply --check would change files */
	EXIT_BAD_INPUT = 2, /* bad usage or bad input */
	EXIT_INTERNAL = 3,  /* a bug or an environment failure */
};

#endif
