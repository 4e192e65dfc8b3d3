// The operator's one translation unit: the class and its member definitions
// are spread over implementation files with the extensions template-heavy
// code uses (.tcc, .ipp, .h++), which apply instruments and strip must clean.
#include "op_class.h++"
#include "op_impl.tcc"
#include "op_math.ipp"
