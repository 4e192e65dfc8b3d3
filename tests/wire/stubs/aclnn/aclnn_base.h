// A stand-in of CANN's aclnn/aclnn_base.h for tests/wire: the aclnn types (acl_meta.h), enough to
// compile a project's hand-written aclnn sources with g++ -fsyntax-only.
#ifndef AUTOTRACE_STUB_ACLNN_BASE_H
#define AUTOTRACE_STUB_ACLNN_BASE_H

#include "aclnn/acl_meta.h"

#endif
