# benchlab - top-level driver over CMake + Ninja.
#   make          build everything into build/ (the CLI is build/bin/benchlab)
#   make demo     install missing packages (as root), build, run the example suite
#   make check    check the layout (clang-format), build and run every test,
#                 normally and under ASan+UBSan
#   make format   lay out every C file with clang-format (.clang-format)
#   make install  PREFIX=DIR (default /usr/local)
PREFIX ?= /usr/local
BUILD ?= build
ASAN_BUILD ?= build-asan
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all build demo check test test-asan install clean deps deps-check format format-check

all: build

deps:
	@scripts/deps.sh

deps-check:
	@scripts/deps.sh --check

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The demo saves its run in the project's store (.benchlab/results.db):
# run it twice, then `build/bin/benchlab history` and `... judge`.
demo: build
	@echo "== benchlab example suite: Go benchmark format on stdout, summary on stderr =="
	$(BUILD)/bin/benchlab run $(BUILD)/bin/example_suite --alloc --save $(DEMO_ARGS)

test: deps-check $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

$(ASAN_BUILD)/build.ninja:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBENCHLAB_SANITIZE=ON $(CMAKE_FLAGS)

test-asan: deps-check $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -E '^bench/'

check: deps-check format-check test test-asan

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The C files: git's list in a checkout, else every .c and .h in the tree.
C_FILES = $$(git ls-files '*.[ch]' 2>/dev/null | grep . || find include src tests bench examples -name '*.[ch]')

format:
	clang-format -i $(C_FILES)

# The layout gate of `make check`: names every file clang-format would change.
format-check:
	@bad=""; for f in $(C_FILES); do \
	  clang-format "$$f" | cmp -s "$$f" - || bad="$$bad $$f"; \
	done; \
	if [ -n "$$bad" ]; then \
	  echo "clang-format would change:$$bad" >&2; echo "run: make format" >&2; exit 1; \
	fi

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-ci
