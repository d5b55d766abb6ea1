// cpp_suite.cpp - benchlab.h from C++: built as C++17 and as C++20 with
// -Wall -Wextra -Wpedantic -Werror, then listed and run by cpp.sh.
#include <benchlab.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace
{

struct Table {
    std::vector<long> values;
};

void make_table(bl_state *st)
{
    auto *t = new Table;
    t->values.resize(static_cast<size_t>(bl_param_int(st, "size")));
    std::iota(t->values.begin(), t->values.end(), 1L);
    bl_set_user(st, t);
}

void free_table(bl_state *st)
{
    delete static_cast<Table *>(bl_user(st));
}

struct Pair {
    long a, b;
};

} // namespace

// options in any order (not member order), parameters of both kinds, threads
BENCHLAB(Sum, .threads = BL_THREADS(1, 2), .global_cleanup = free_table,
         .params = BL_PARAMS(BL_INTS("size", 16, 256u), BL_STRS("kind", "vector", "pair")),
         .global_setup = make_table)
{
    const Table &t = *static_cast<Table *>(bl_user(st));
    const std::string kind = bl_param_str(st, "kind");
    while (bl_loop(st)) {
        if (kind == "vector") {
            bl_do_not_optimize(std::accumulate(t.values.begin(), t.values.end(), 0L));
        } else {
            Pair p{t.values.front(), t.values.back()};
            bl_do_not_optimize(p);
        }
    }
    bl_report_metric_ex(st, static_cast<double>(t.values.size()), "elems/op", BL_HIGHER_IS_BETTER);
}

// no options at all
BENCHLAB(Plain)
{
    char buf[64];
    while (bl_loop(st)) {
        std::memset(buf, 1, sizeof buf);
        bl_escape(buf);
    }
    bl_clobber();
}

BENCHLAB(complexity_sort, .complexity = BL_ON, .params = BL_PARAMS(BL_INTS("n", 64, 128, 256)),
         .macro = 0)
{
    std::vector<int> v(static_cast<size_t>(bl_param_int(st, "n")));
    while (bl_loop(st)) {
        for (auto &x : v)
            x++;
        bl_escape(v.data());
    }
}

// ranges, as Google Benchmark's Range and DenseRange; the value reaches the body
BENCHLAB(Ranged, .params = BL_PARAMS(BL_RANGE("n", 1, 64, 8), BL_DENSE_RANGE("k", 2, 6, 4)))
{
    const long long n = bl_param_int(st, "n"), k = bl_param_int(st, "k");
    while (bl_loop(st))
        bl_do_not_optimize(n * k);
    bl_report_metric(st, static_cast<double>(n * 100 + k), "nk");
}
BENCHLAB(BadRange, .params = BL_PARAMS(BL_DENSE_RANGE("n", 1, 8, 0)))
{
    while (bl_loop(st)) {
    }
}

// steps of 7 repetitions: every batch a multiple of 7, the count exact
BENCHLAB(Steps)
{
    bl_set_batch_multiple(st, 7);
    unsigned long long steps = 0;
    while (bl_loop_n(st, 7))
        steps++;
    bl_report_metric(st, steps * 7 == bl_iterations(st) ? 1.0 : 0.0, "exact");
    bl_report_metric(st, static_cast<double>(bl_iterations(st) % 7), "rest");
}
BENCHLAB(StepsLate)
{
    while (bl_loop(st))
        bl_set_batch_multiple(st, 7);
}

BENCHLAB_MAIN()
