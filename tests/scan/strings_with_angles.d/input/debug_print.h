#pragma once
__aicore__ inline void CheckShape(uint32_t m, uint32_t n)
{
    if (m < n) {
        printf("m < n: %u >= %u is false\n", m, n);
    }
    const char *cmp = "a<b && c>d";
    char open = '{';
    char close = '}';
    char lt = '<';
    AssertMsg(n >= 16, "n >= 16 required, got %u {", n);
    Report("}}}");
}

__aicore__ inline void After(uint32_t x)
{
    Log("x<<2 = %u", x << 2);
}
