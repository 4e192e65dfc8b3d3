#pragma once
// raw strings holding braces, quotes and a fake comment
static const char *kMeta = R"json({"op": "moe", "attrs": { "k": 8 }, "note": "/* not a comment */"})json";
static const char *kAsm = R"(
    if (x) { return "}"; }
)";

__aicore__ inline void UseMeta()
{
    const char *s = u8R"x(a ")" b)x";
    Parse(kMeta, LR"(wide{)");
    Dump(s);
}
