# build_of.sh - sourced by the end-to-end scripts: build_of prints which
# build $bin (or $BIN) belongs to, for a failure's one line: compiler,
# build type, sanitizers, the build directory's name.
build_of() {
    d=${bin:-${BIN:-.}}
    for _ in 1 2 3; do [ -f "$d/CMakeCache.txt" ] && break; d=$d/..; done
    [ -f "$d/CMakeCache.txt" ] || { echo "unknown build ${bin:-${BIN:-.}}"; return; }
    cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$d/CMakeCache.txt")
    printf '%s ' "$(basename "$(readlink -f "$cc" 2>/dev/null || echo "$cc")")"
    sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$d/CMakeCache.txt" | tr '\n' ' '
    grep -q '^BENCHLAB_SANITIZE:BOOL=ON' "$d/CMakeCache.txt" && printf 'ASan+UBSan ' || :
    (cd "$d" && pwd) | sed 's,.*/,,'
}
# a failure that names what was expected, what was measured and the build, in one line
fail_measured() { fail "$* [build: $(build_of)]"; }
