// check_slots.cpp - runs the instrumented example kernel on the host simulation and checks the
// profiling slots it leaves in GM. Prints TAP-style lines ("ok - name" / "not ok - name" + "# why").
//
//   check_slots --map ids.tsv --layout 1|2 --expect records|unpreprocessed|none [--stamp N]
//
// ids.tsv: "id<TAB>B|E<TAB>label" per point, as written by the test's stand-in preprocessor.
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sim_runtime.h"

extern "C" int aclnn_sim_moe_distribute_dispatch_gmm(
    const float *x, const int32_t *expertIds, const float *weight1, const float *weight2,
    const float *scale, float *y, int64_t *expertTokenNums, int64_t *profilingData,
    int64_t profilingWords, uint32_t tokenNum, uint32_t hiddenSize, uint32_t interSize,
    uint32_t expertNum, uint32_t aicNum);

namespace {

constexpr int64_t S = 2048;                 // PROF_SIZE_PER_CORE of the example
constexpr int64_t SLOTS = 128 * 3;          // profiling_data as Infer sizes it
constexpr int64_t TAIL = 64;                // canary words after the tensor
constexpr int64_t CANARY = 0x0BADC0DE0BADC0DELL;
constexpr uint32_t T = 64, H = 32, I = 48, E = 8, AIC_NUM = 4;
constexpr uint32_t B = E < AIC_NUM ? E : AIC_NUM;

struct Point {
    char event;
    std::string label;
};

int failures = 0;

void report(bool ok, const std::string &name, const std::string &why)
{
    std::printf("%s - %s\n", ok ? "ok" : "not ok", name.c_str());
    if (!ok) {
        std::printf("# %s\n", why.c_str());
        failures++;
    }
}

std::string fmt(const char *f, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

std::map<uint32_t, Point> read_map(const char *path)
{
    std::map<uint32_t, Point> m;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        uint32_t id;
        std::string ev;
        if (!(ls >> id >> ev)) {
            continue;
        }
        std::string label;
        std::getline(ls, label);
        size_t p = label.find_first_not_of(" \t");
        m[id] = Point{ev[0], p == std::string::npos ? "" : label.substr(p)};
    }
    return m;
}

struct Slot {
    int64_t n = 0;          // records
    int64_t dropped = 0;
    int64_t entry = 0;
    std::vector<int64_t> words, cycles;
    int64_t writtenWords = 0; // words the runtime writes back
};

Slot decode(const int64_t *p, int layout)
{
    Slot s;
    if (layout == 1) {
        s.n = p[0] - 1;
        s.entry = p[S - 1];
        for (int64_t k = 0; k < s.n && k < (S - 2) / 2; k++) {
            s.words.push_back(p[1 + k]);
            s.cycles.push_back(p[S - 2 - k]);
        }
        s.writtenWords = S;
    } else {
        s.n = p[4];
        s.dropped = p[5];
        s.entry = p[7];
        for (int64_t k = 0; k < s.n && k < (S - 8) / 2; k++) {
            s.words.push_back(p[8 + 2 * k]);
            s.cycles.push_back(p[9 + 2 * k]);
        }
        s.writtenWords = (8 + 2 * s.n + 7) / 8 * 8;
    }
    return s;
}

uint32_t groups_of(uint32_t group)
{
    return group < E ? (E - group + B - 1) / B : 0;
}

} // namespace

int main(int argc, char **argv)
{
    const char *mapPath = nullptr;
    int layout = 2;
    std::string expect = "records";
    bool haveStamp = false;
    uint64_t stamp = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--map")) {
            mapPath = argv[i + 1];
        } else if (!std::strcmp(argv[i], "--layout")) {
            layout = std::atoi(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--expect")) {
            expect = argv[i + 1];
        } else if (!std::strcmp(argv[i], "--stamp")) {
            stamp = std::strtoull(argv[i + 1], nullptr, 0);
            haveStamp = true;
        } else {
            std::fprintf(stderr, "check_slots: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    std::map<uint32_t, Point> map;
    if (mapPath != nullptr) {
        map = read_map(mapPath);
    }

    // Inputs: token t goes to expert (3t) % E, so every expert group has tokens.
    std::vector<float> x(T * H), w1((size_t)E * H * I), w2((size_t)E * I * H), scale(E);
    std::vector<int32_t> ids(T);
    uint32_t seed = 12345;
    auto rnd = [&seed]() {
        seed = seed * 1103515245u + 12345u;
        return (float)((seed >> 16) & 0x7FFF) / 32768.0f - 0.5f;
    };
    for (float &v : x) v = rnd();
    for (float &v : w1) v = rnd();
    for (float &v : w2) v = rnd();
    for (uint32_t e = 0; e < E; e++) scale[e] = 0.5f + (float)e / 8.0f;
    for (uint32_t t = 0; t < T; t++) ids[t] = (int32_t)((3 * t) % E);
    std::vector<float> y(T * H, 0.0f);
    std::vector<int64_t> nums(E, 0);
    std::vector<int64_t> prof(SLOTS * S + TAIL, CANARY);

    sim::reset_stats();
    int rc = aclnn_sim_moe_distribute_dispatch_gmm(x.data(), ids.data(), w1.data(), w2.data(),
                                                   scale.data(), y.data(), nums.data(),
                                                   prof.data(), SLOTS * S, T, H, I, E, AIC_NUM);
    report(rc == 0, "kernel launch", fmt("rc %d", rc));

    // Reference: y[t] = relu((x[t] W1[e]) * s[e]) W2[e].
    double maxErr = 0;
    for (uint32_t t = 0; t < T; t++) {
        uint32_t e = (uint32_t)ids[t];
        std::vector<double> act(I);
        for (uint32_t j = 0; j < I; j++) {
            double a = 0;
            for (uint32_t k = 0; k < H; k++) a += (double)x[t * H + k] * w1[((size_t)e * H + k) * I + j];
            a *= scale[e];
            act[j] = a > 0 ? a : 0;
        }
        for (uint32_t j = 0; j < H; j++) {
            double v = 0;
            for (uint32_t k = 0; k < I; k++) v += act[k] * w2[((size_t)e * I + k) * H + j];
            maxErr = std::fmax(maxErr, std::fabs(v - y[t * H + j]));
        }
    }
    bool numsOk = true;
    for (uint32_t e = 0; e < E; e++) numsOk = numsOk && nums[e] == T / E;
    report(maxErr < 1e-3 && numsOk, "kernel result matches the reference",
           fmt("max error %g, expert_token_nums %s", maxErr, numsOk ? "ok" : "wrong"));

    sim::Stats st = sim::stats();
    bool tailOk = true;
    for (int64_t i = SLOTS * S; i < SLOTS * S + TAIL; i++) tailOk = tailOk && prof[i] == CANARY;
    bool unusedOk = true;
    for (int64_t i = 3 * B * S; i < SLOTS * S; i++) unusedOk = unusedOk && prof[i] == CANARY;

    if (expect == "none") {
        bool all = tailOk && unusedOk;
        for (int64_t i = 0; i < 3 * B * S; i++) all = all && prof[i] == CANARY;
        report(all, "disabled build writes nothing to profiling_data", "a word changed");
        report(st.dcciLines == 0, "disabled build flushes no cache line",
               fmt("%llu flushes", (unsigned long long)st.dcciLines));
        return failures ? 1 : 0;
    }

    std::vector<Slot> slots;
    for (uint32_t s = 0; s < 3 * B; s++) slots.push_back(decode(&prof[(size_t)s * S], layout));

    // Identities (v2 header; v1 has none, only a live counter).
    std::string why;
    for (uint32_t s = 0; s < 3 * B && why.empty(); s++) {
        const int64_t *p = &prof[(size_t)s * S];
        bool aic = s < B;
        int64_t blk = aic ? s : s - B;
        int64_t sub = aic ? 0 : (s - B) % 2;
        if (layout == 1) {
            if (p[0] < 1) why = fmt("slot %u: counter %lld", s, (long long)p[0]);
            continue;
        }
        uint64_t w0 = (uint64_t)p[0], w1 = (uint64_t)p[1];
        if (w0 != 0x4D4F455400080002ull) why = fmt("slot %u: word 0 %#llx", s, (unsigned long long)w0);
        else if ((w1 & 0xFF) != (aic ? 1u : 2u)) why = fmt("slot %u: core type %llu", s, (unsigned long long)(w1 & 0xFF));
        else if (((w1 >> 8) & 0xFF) != 2 || ((w1 >> 16) & 0xFFFF) != B || (w1 >> 32) != (uint64_t)S)
            why = fmt("slot %u: word 1 %#llx", s, (unsigned long long)w1);
        else if (p[2] != blk || p[3] != sub)
            why = fmt("slot %u: block %lld sub %lld, expected %lld %lld", s, (long long)p[2], (long long)p[3], (long long)blk, (long long)sub);
    }
    report(why.empty(), fmt("v%d slots carry the right core identities", layout), why);

    // Counts: AIC 6 + 20 per group, each AIV 8 + 24 per group (see tests/device/instrumented).
    why.clear();
    for (uint32_t s = 0; s < 3 * B && why.empty(); s++) {
        uint32_t group = s < B ? s : (s - B) / 2;
        int64_t want = s < B ? 6 + 20 * (int64_t)groups_of(group) : 8 + 24 * (int64_t)groups_of(group);
        if (slots[s].n != want) why = fmt("slot %u: %lld records, expected %lld", s, (long long)slots[s].n, (long long)want);
        else if (slots[s].dropped != 0) why = fmt("slot %u: %lld dropped", s, (long long)slots[s].dropped);
    }
    report(why.empty(), "record counts per core as expected, none dropped", why);

    // Cycles: non-decreasing from the entry cycle on.
    why.clear();
    for (uint32_t s = 0; s < 3 * B && why.empty(); s++) {
        int64_t prev = slots[s].entry;
        if (prev <= 0) why = fmt("slot %u: entry cycle %lld", s, (long long)prev);
        for (size_t k = 0; k < slots[s].cycles.size() && why.empty(); k++) {
            if (slots[s].cycles[k] < prev) why = fmt("slot %u record %zu: cycle %lld < %lld", s, k, (long long)slots[s].cycles[k], (long long)prev);
            prev = slots[s].cycles[k];
        }
    }
    report(why.empty(), "cycles are monotonic from the entry cycle", why);

    if (expect == "unpreprocessed") {
        why.clear();
        for (uint32_t s = 0; s < 3 * B && why.empty(); s++)
            for (int64_t w : slots[s].words)
                if ((uint64_t)w % (1ull << 32) != 0xFFFFFFFFull) why = fmt("slot %u: id %#llx", s, (unsigned long long)w);
        report(why.empty(), "unpreprocessed build records the reserved id 0xFFFFFFFF", why);
    } else {
        // B/E balanced and properly nested per core, ids known to the map.
        why.clear();
        for (uint32_t s = 0; s < 3 * B && why.empty(); s++) {
            std::vector<std::string> stack;
            for (size_t k = 0; k < slots[s].words.size() && why.empty(); k++) {
                uint32_t id = (uint32_t)((uint64_t)slots[s].words[k] & 0xFFFFFFFFull);
                auto it = map.find(id);
                if (it == map.end()) { why = fmt("slot %u record %zu: unknown id %u", s, k, id); break; }
                if (it->second.event == 'B') stack.push_back(it->second.label);
                else if (stack.empty() || stack.back() != it->second.label)
                    why = fmt("slot %u record %zu: E '%s' does not close '%s'", s, k, it->second.label.c_str(), stack.empty() ? "" : stack.back().c_str());
                else stack.pop_back();
            }
            if (why.empty() && !stack.empty()) why = fmt("slot %u: '%s' never ends", s, stack.back().c_str());
        }
        report(why.empty(), "B/E records balanced and nested on every core", why);

        // Loop indexes: 'moe-process' points carry groupIdx = group, group + B, ...; the role
        // points (three-argument form) carry the sub-block in extraId.
        why.clear();
        for (uint32_t s = 0; s < 3 * B && why.empty(); s++) {
            uint32_t group = s < B ? s : (s - B) / 2;
            std::map<std::string, uint32_t> next;
            for (int64_t w : slots[s].words) {
                uint64_t u = (uint64_t)w;
                const Point &pt = map[(uint32_t)(u & 0xFFFFFFFFull)];
                if (pt.label.find("moe-process") != std::string::npos && pt.event == 'B') {
                    uint32_t want = group + B * next[pt.label]++;
                    if ((uint32_t)(u >> 32) != want) why = fmt("slot %u '%s': index %u, expected %u", s, pt.label.c_str(), (uint32_t)(u >> 32), want);
                } else if ((pt.label == "dispatch send-core" || pt.label == "dispatch recv-core") && s >= B) {
                    uint32_t extra = (uint32_t)((u >> 32) & 0xFF), idx = (uint32_t)(u >> 40);
                    if (extra != (s - B) % 2 || idx % B != group) why = fmt("slot %u '%s': extra %u index %u", s, pt.label.c_str(), extra, idx);
                }
            }
        }
        report(why.empty(), "loop indexes and extra ids decode as written", why);
    }

    // Nothing written where it should not be.
    why.clear();
    if (!tailOk) why = "canary after profiling_data overwritten";
    else if (!unusedOk) why = "a slot beyond 3 * GetBlockNum() was written";
    for (uint32_t s = 0; s < 3 * B && why.empty(); s++)
        for (int64_t i = slots[s].writtenWords; i < S; i++)
            if (prof[(size_t)s * S + i] != CANARY) { why = fmt("slot %u word %lld written past the records", s, (long long)i); break; }
    report(why.empty(), "nothing written outside the used lines of the used slots", why);

    uint64_t lines = 0;
    for (const Slot &s : slots) lines += (uint64_t)s.writtenWords / 8;
    report(st.dcciLines == lines, "one DataCacheCleanAndInvalid per 64-byte line written",
           fmt("%llu flushes, %llu lines", (unsigned long long)st.dcciLines, (unsigned long long)lines));

    if (haveStamp && layout == 2) {
        why.clear();
        for (uint32_t s = 0; s < 3 * B && why.empty(); s++)
            if ((uint64_t)prof[(size_t)s * S + 6] != stamp) why = fmt("slot %u: stamp %#llx", s, (unsigned long long)prof[(size_t)s * S + 6]);
        report(why.empty(), fmt("build stamp %#llx in every v2 header", (unsigned long long)stamp), why);
    }
    return failures ? 1 : 0;
}
