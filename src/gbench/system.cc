/*
 * system.cc - libbenchlab-gbench: what Google Benchmark 1.7.1 reads from the
 * machine and the process environment: CPUInfo and SystemInfo, the flags
 * its suites may set in BENCHMARK_* variables, and the command line that a
 * suite's workers are started with (the engine's BENCHLAB_SUITE_ARGV and
 * BENCHLAB_WORKER_ARGV, docs/engine.md). Used by gbench.cc (system.h).
 */
#include <benchmark/benchmark.h>

#include "system.h"

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace benchmark
{
namespace internal
{

/* Google Benchmark 1.7.1 reads each flag's default from the environment
 * (its FLAG_benchmark_x = ...FromEnv("benchmark_x")): BENCHMARK_FILTER,
 * BENCHMARK_MIN_TIME, ..., V. A suite whose main takes argv for itself
 * (spdlog's formatter-bench) can be steered only that way. */
const char *env_of(const char *flag)
{
    std::string var;
    for (const char *p = flag; *p; p++)
        var += static_cast<char>(std::toupper(static_cast<unsigned char>(*p)));
    return std::getenv(var.c_str());
}

/* Google Benchmark's reading of a boolean flag's value */
static bool truthy(const std::string &v)
{
    if (v.size() == 1)
        return std::isalnum(static_cast<unsigned char>(v[0])) && v[0] != '0' && v[0] != 'f' &&
               v[0] != 'F' && v[0] != 'n' && v[0] != 'N';
    std::string low;
    for (char c : v)
        low += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return low != "false" && low != "no" && low != "off";
}

/* the flags the environment sets, as command-line flags to put before the
 * command line's own (which then win, as in Google Benchmark); an empty
 * variable sets nothing */
std::vector<std::string> env_flags()
{
    static const char *const names[] = {"benchmark_filter",      "benchmark_min_time",
                                        "benchmark_repetitions", "benchmark_format",
                                        "benchmark_out",         "benchmark_out_format",
                                        "benchmark_time_unit",   "benchmark_perf_counters"};
    std::vector<std::string> f;
    const char *list = env_of("benchmark_list_tests");
    if (list && *list && truthy(list))
        f.push_back("--benchmark_list_tests=true");
    for (const char *name : names) {
        const char *v = env_of(name);
        if (v && *v)
            f.push_back(std::string("--") + name + "=" + v);
    }
    return f;
}

/* "a\x1fb" <-> {"a", "b"}: argument lists passed in the environment */
std::vector<std::string> split_args(const char *s)
{
    std::vector<std::string> v;
    for (const char *p = s; p && *p;) {
        const char *e = std::strchr(p, '\x1f');
        v.push_back(e ? std::string(p, static_cast<size_t>(e - p)) : std::string(p));
        p = e ? e + 1 : p + std::strlen(p);
    }
    return v;
}
static std::string join_args(int argc, char *const *argv)
{
    std::string s;
    for (int i = 0; i < argc; i++)
        s += (i ? "\x1f" : "") + std::string(argv[i]);
    return s;
}

/*
 * In a worker started with the suite's own command line (the engine does
 * so when BENCHLAB_SUITE_ARGV is set, src/lib/engine/worker_proc.c), the
 * worker's arguments: argv[0], then BENCHLAB_WORKER_ARGV's. Taken once (both
 * variables are removed, so that what the benchmark starts does not see them).
 */
bool take_worker_args(const char *argv0, std::vector<std::string> *out)
{
    const char *w = std::getenv("BENCHLAB_WORKER_ARGV");
    if (!w || !*w)
        return false;
    out->clear();
    out->push_back(argv0);
    for (const std::string &a : split_args(w))
        out->push_back(a);
    unsetenv("BENCHLAB_WORKER_ARGV");
    unsetenv("BENCHLAB_SUITE_ARGV");
    return true;
}

/* the command line of the run, for its workers (above) */
void set_suite_argv(int argc, char *const *argv)
{
    if (argc > 0)
        setenv("BENCHLAB_SUITE_ARGV", join_args(argc, argv).c_str(), 1);
}

} // namespace internal

/* ---- the machine ---- */

namespace
{
/* the first line of a small file under /sys, "" when there is none */
std::string read_line(const std::string &path)
{
    std::ifstream f(path);
    std::string s;
    std::getline(f, s);
    return s;
}
} // namespace

CPUInfo::CPUInfo() : num_cpus(1), scaling(UNKNOWN), cycles_per_second(0)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN); /* as ThreadPerCpu */
    num_cpus = n > 0 ? static_cast<int>(n) : 1;
    const std::string cpu0 = "/sys/devices/system/cpu/cpu0/";
    std::string gov = read_line(cpu0 + "cpufreq/scaling_governor");
    if (!gov.empty())
        scaling = gov == "performance" ? DISABLED : ENABLED;
    /* Google Benchmark's order: the TSC's frequency, else cpufreq's */
    std::string khz = read_line(cpu0 + "tsc_freq_khz");
    if (khz.empty())
        khz = read_line(cpu0 + "cpufreq/cpuinfo_max_freq");
    if (!khz.empty())
        cycles_per_second = std::atof(khz.c_str()) * 1000.0;
    for (int i = 0;; i++) {
        const std::string d = cpu0 + "cache/index" + std::to_string(i) + "/";
        std::string size = read_line(d + "size");
        if (size.empty())
            break;
        CacheInfo c;
        c.type = read_line(d + "type");
        c.level = std::atoi(read_line(d + "level").c_str());
        c.size = std::atoi(size.c_str());
        if (!size.empty() && size.back() == 'K')
            c.size *= 1024;
        else if (!size.empty() && size.back() == 'M')
            c.size *= 1024 * 1024;
        /* the CPUs in shared_cpu_map's hex mask */
        c.num_sharing = 0;
        for (char h : read_line(d + "shared_cpu_map"))
            if (std::isxdigit(static_cast<unsigned char>(h)))
                c.num_sharing += __builtin_popcount(static_cast<unsigned>(
                    std::isdigit(static_cast<unsigned char>(h))
                        ? h - '0'
                        : std::tolower(static_cast<unsigned char>(h)) - 'a' + 10));
        caches.push_back(c);
    }
    double avg[3];
    int got = getloadavg(avg, 3);
    for (int i = 0; i < got; i++)
        load_avg.push_back(avg[i]);
}

const CPUInfo &CPUInfo::Get()
{
    static const CPUInfo info;
    return info;
}

SystemInfo::SystemInfo()
{
    char host[256] = "";
    if (gethostname(host, sizeof host - 1) == 0)
        name = host;
}

const SystemInfo &SystemInfo::Get()
{
    static const SystemInfo info;
    return info;
}

} // namespace benchmark
