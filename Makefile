# benchlab - top-level driver over CMake + Ninja. Every target installs the
# Debian packages it needs first (scripts/deps.sh, from scripts/packages.txt;
# docs/dependencies.md), so each works first on a fresh machine, in any order.
#   make          build everything into build/ (the CLI is build/bin/benchlab)
#   make demo     build, run the example suite and save its run
#   make check    check the layout (clang-format), build and run every test,
#                 normally and under ASan+UBSan (there without the static
#                 and fuzz tests, which it would only repeat)
#   make check-fast  the edit loop: layout, build, and the tests labelled
#                 static, unit and golden (about a minute; docs/testing.md)
#   make soak     the whole suite N times, K cores kept busy (tests/soak.sh)
#   make format   lay out every C file with clang-format (.clang-format)
#   make install  PREFIX=DIR (default /usr/local)
# make, demo and install need only the build packages; check adds the test
# packages and then configures the tests (a build configured without them
# has none: tests/CMakeLists.txt needs cmocka).
PREFIX ?= /usr/local
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build demo check check-fast soak test test-asan install clean deps deps-check deps-optional \
	format format-check

all: build

deps:
	@scripts/deps.sh build

deps-check:
	@scripts/deps.sh build test

deps-optional:
	@scripts/deps.sh build test optional

# configure DIR FLAGS: run CMake when DIR has no build yet; with "tests",
# also when DIR was configured before the test packages were there.
configure = if [ ! -f $(1)/build.ninja ] || \
	  { [ "$(3)" = tests ] && ! grep -q '^BENCHLAB_TESTS_CONFIGURED:INTERNAL=ON' $(1)/CMakeCache.txt; }; then \
	  cmake -S . -B $(1) -G Ninja $(2) $(CMAKE_FLAGS); fi

build: deps
	@$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX))
	cmake --build $(BUILD) -j $(JOBS)

# The demo saves its run in the project's store (.benchlab/results.db):
# run it twice, then `build/bin/benchlab history` and `... judge`.
demo: build
	@echo "== benchlab example suite: Go benchmark format on stdout, summary on stderr =="
	$(BUILD)/bin/benchlab run $(BUILD)/bin/example_suite --alloc --save $(DEMO_ARGS)

test: deps-check
	@$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX),tests)
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS)

# The sanitizer build has no static or fuzz tests (tests/CMakeLists.txt
# leaves them out there); -LE says so to ctest as well.
test-asan: deps-check
	@$(call configure,$(ASAN_BUILD),-DCMAKE_BUILD_TYPE=Debug -DBENCHLAB_SANITIZE=ON,tests)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && $(ASAN_ENV) \
	  ctest --output-on-failure --no-tests=error -j $(JOBS) -LE '^(static|fuzz)$$'

ASAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The edit loop: what needs no fixture run, in about a minute once built.
check-fast: deps-check
	@$(MAKE) --no-print-directory format-check
	@$(call configure,$(BUILD),-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$(PREFIX),tests)
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(JOBS) -L '^(static|unit|golden)$$'

# tests/soak.sh over the normal build: SOAK_ARGS="-n 3 -k 2" (passes, busy
# loops), -b build-asan for the sanitizer build.
soak: test
	tests/soak.sh $(SOAK_ARGS)

# In this order, also under make -j: the packages first, then the layout,
# the tests, the sanitizer build.
check: deps-check
	@$(MAKE) --no-print-directory format-check
	@$(MAKE) --no-print-directory test
	@$(MAKE) --no-print-directory test-asan

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The C files: git's list in a checkout, else every .c and .h in the tree.
C_FILES = $$(git ls-files '*.[ch]' 2>/dev/null | grep . || find include src tests bench examples -name '*.[ch]')

format:
	clang-format -i $(C_FILES)

# The layout gate of `make check`: names every file clang-format would change.
format-check:
	@command -v clang-format >/dev/null || \
	  { echo "clang-format is missing: make deps-check installs it (docs/dependencies.md)" >&2; exit 1; }
	@bad=""; for f in $(C_FILES); do \
	  clang-format "$$f" | cmp -s "$$f" - || bad="$$bad $$f"; \
	done; \
	if [ -n "$$bad" ]; then \
	  echo "clang-format would change:$$bad" >&2; echo "run: make format" >&2; exit 1; \
	fi

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-ci
