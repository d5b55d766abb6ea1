/* gbench_main.cc - libbenchlab-gbench-main: main() for Google Benchmark
 * suites without one, as -lbenchmark_main gives. The suite's name (pkg:)
 * is the program's own: the stem of /proc/self/exe, else of argv[0], not
 * of this file. */
#include <benchmark/benchmark.h>

#include <climits>
#include <string>
#include <unistd.h>

int main(int argc, char **argv)
{
    static std::string self;
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0)
        self.assign(buf, static_cast<size_t>(n));
    else if (argc > 0 && argv[0])
        self = argv[0];
    bl_register_suite("", self.empty() ? nullptr : self.c_str());
    ::benchmark::Initialize(&argc, argv);
    if (::benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    ::benchmark::RunSpecifiedBenchmarks();
    ::benchmark::Shutdown();
    return 0;
}
