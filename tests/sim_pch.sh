# Sourced by the tests that compile against the host simulation (device/sim):
# the standard headers it includes, precompiled once per test run, so that a
# g++ of each small translation unit does not parse <functional>, <memory>
# and <vector> again (0.4 s of each compile here, 0.13 s with the header).
# The header holds only standard headers that device/sim/kernel_operator.h
# includes anyway: a file under test still has to include the simulation
# itself. An unusable precompiled header (other flags) is ignored by g++,
# which then reads the text header: the same compile, slower.
#
# sim_pch DIR CXX FLAGS...: writes DIR/sim_std.h and its .gch; sets
# $sim_pch_flags to "-include DIR/sim_std.h" (empty when g++ cannot build it).
sim_pch() {
	_d=$1 _cxx=$2
	shift 2
	sim_pch_flags=
	mkdir -p "$_d" || return 0
	printf '#include <cstddef>\n#include <cstdint>\n#include <cstring>\n#include <functional>\n#include <memory>\n#include <vector>\n' \
		>"$_d/sim_std.h"
	# shellcheck disable=SC2068
	"$_cxx" $@ -x c++-header "$_d/sim_std.h" -o "$_d/sim_std.h.gch" >/dev/null 2>&1 &&
		sim_pch_flags="-include $_d/sim_std.h"
}
