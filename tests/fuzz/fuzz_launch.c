/* Fuzz target for the direct-launch reader (project_launch.c): the input is
 * the one C/C++ file of a project (its macros, launches, registrations,
 * schemas and declarations), read for the kernel entries the seeds of
 * tests/launch launch; every record it returns is visited. */
#include <stdint.h>
#include <stdlib.h>

#include "project_launch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const entries[] = { "vadd", "vscale", "vsplit_kernel", "vcopy_kernel", "vrelu_kernel", "k" };
	struct src_file *f = src_file_from_buffer("fuzz.cpp", (const char *)data, size);
	struct project_launch l;

	project_launch_read_files(&l, &f, 1, entries, sizeof(entries) / sizeof(entries[0]), "profiling_data");
	for (size_t i = 0; i < l.nfiles; i++)
		for (size_t s = 0; s < l.files[i].nsites; s++)
			for (size_t a = 0; a < l.files[i].sites[s].args.n; a++) {
				char *id = project_launch_prof_ident(l.files[i].sites[s].args.v[a], "profiling_data");
				free(id);
			}
	for (size_t k = 0; k < l.nfuncs; k++)
		(void)project_launch_pf(&l, &l.funcs[k]);
	for (size_t g = 0; g < l.nregs; g++)
		if (l.regs[g].func && l.files[l.regs[g].file].nmissing) {
			struct pybind_range at;
			free(project_launch_missing(&l, &l.regs[g], ".", "profiling_data", &at));
		}
	project_launch_release(&l);
	src_file_free(f);
	return 0;
}
