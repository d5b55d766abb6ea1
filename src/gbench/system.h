/*
 * system.h - libbenchlab-gbench's reading of the process environment
 * (system.cc), for gbench.cc.
 */
#ifndef BENCHLAB_GBENCH_SYSTEM_H
#define BENCHLAB_GBENCH_SYSTEM_H

#include <string>
#include <vector>

namespace benchmark
{
namespace internal
{

/* Google Benchmark's environment variable of a flag ("benchmark_filter":
 * BENCHMARK_FILTER, "v": V), NULL when unset */
const char *env_of(const char *flag);
/* the flags the environment sets, as command-line flags ("--benchmark_x=v") */
std::vector<std::string> env_flags();
/* "a\x1fb" -> {"a", "b"} */
std::vector<std::string> split_args(const char *s);
/* in a worker started with the run's command line, its own arguments
 * (argv0, then BENCHLAB_WORKER_ARGV's), taken once; false elsewhere */
bool take_worker_args(const char *argv0, std::vector<std::string> *out);
/* the run's command line, for the engine to start its workers with */
void set_suite_argv(int argc, char *const *argv);

} // namespace internal
} // namespace benchmark

#endif /* BENCHLAB_GBENCH_SYSTEM_H */
