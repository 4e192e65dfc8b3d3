/* Shared main() for the Check unit tests: runs the file's suite and reports
 * in TAP on stdout (for automake's TAP driver) followed by Check's summary.
 * A test file defines `static Suite *make_suite(void)` and includes this last. */
#ifndef AUTOTRACE_CHECK_MAIN_H
#define AUTOTRACE_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static Suite *make_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(make_suite());
	int failed;

	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
