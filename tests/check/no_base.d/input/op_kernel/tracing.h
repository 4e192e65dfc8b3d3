// The runtime under a name the rules' base globs do not match.
template <bool sync = false> inline void MoeTracing(long data) { (void)data; }
