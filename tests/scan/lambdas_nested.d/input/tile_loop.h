#pragma once
__aicore__ inline void ForEachTile(uint32_t n)
{
    auto copyTile = [&](uint32_t idx) -> bool {
        if (idx >= n) {
            return false;
        }
        DataCopy(dst[idx], src[idx], tileLen);
        return true;
    };
    auto body = [=](uint32_t idx) mutable {
        for (uint32_t j = 0; j < 4; ++j) {
            if (j == idx) continue;
            Acc(j);
        }
    };
    for (uint32_t i = 0; i < n; ++i) {
        if (!copyTile(i)) {
            break;
        }
        body(i);
    }
    Apply([](int v) { return v * 2; }, n);
    return;
}
