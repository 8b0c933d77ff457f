# DualPipe Lab. `make serve` and `make test` install what is missing, build and run.
# Build trees: build/native (g++), build/wasm (Emscripten). See README.md for the code map.
PORT ?= 8000
# Compile jobs: every core the machine has (CI machines may have more than the 2 of a dev box).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all native wasm site course-bundle test test-native test-wasm test-js test-sanitize fuzz serve bench goldens deps clean

all: native

deps-native:
	@scripts/install-deps.sh native

deps:
	@scripts/install-deps.sh all

native: deps-native
	cmake --preset native -DPIPESIM_WERROR=ON >/dev/null
	cmake --build --preset native -j $(JOBS)

wasm: deps
	emcmake cmake --preset wasm >/dev/null
	cmake --build --preset wasm -j $(JOBS)

# The page is served straight from web/; this writes its build outputs (wasm module, JS API,
# rendered lessons, manifest) into the git-ignored web/generated/.
site: wasm
	node scripts/build-site.mjs

# What a pull request to the course site copies in (docs/embedding.md, "For the course"): one
# classic script and its folder, in the git-ignored dist/course/.
course-bundle: site
	node scripts/build-course.mjs

# Tests run JOBS at a time: the CLI's hostile-input script alone takes half a minute or more.
test-native: native
	ctest --preset native -j $(JOBS)

test-wasm: wasm
	ctest --preset wasm

# Every *.test.mjs under tests/wasm, tests/lessons and tests/browser, the slowest files first: node
# starts them in the order given, so a long file started last would run alone at the end (measured:
# timeline-fit, started near the end as it sorts, left one core idle for minutes). tsc first checks
# wasm/pipesim.js against pipesim.d.ts and compiles a TypeScript consumer of the API.
JS_SLOW_TESTS = $(addprefix tests/browser/,timeline-fit a11y reader exercises hostile-page phone feedback timeline-zoom)
JS_TEST_FILES = $(addsuffix .test.mjs,$(JS_SLOW_TESTS)) \
	$(filter-out $(addsuffix .test.mjs,$(JS_SLOW_TESTS)),$(wildcard tests/wasm/*.test.mjs tests/lessons/*.test.mjs tests/browser/*.test.mjs))
# Test files run two at a time even on 2 cores (node's default there is one): a browser test
# spends much of its time waiting on Chromium, the worker and the server. Measured on 2 cores,
# the whole JS suite: 2 at a time 754 s, 3 at a time 951 s (load 10-17); one at a time, before
# this session's test trims, 907 s. With more cores, cores - 1 at a time.
# course-bundle builds the site first; tests/browser/course-*.test.mjs mount dist/course/.
TEST_CONCURRENCY ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n > 3 ? n - 1 : 2 )))
test-js: course-bundle native
	node node_modules/typescript/bin/tsc -p tests/types
	node --test --test-concurrency=$(TEST_CONCURRENCY) $(JS_TEST_FILES)

test: deps
	$(MAKE) test-native
	$(MAKE) test-wasm
	$(MAKE) test-js

deps-sanitize:
	@scripts/install-deps.sh sanitize

# The native Catch2 suite and the CLI contract and hostile-input tests under AddressSanitizer and
# UndefinedBehaviorSanitizer (clang); any report fails the run. build/sanitize, separate from
# build/native.
test-sanitize: deps-sanitize
	cmake --preset sanitize >/dev/null
	cmake --build --preset sanitize -j $(JOBS)
	ctest --preset sanitize

# libFuzzer with ASan+UBSan on each parser harness of tests/fuzz for FUZZ_SECONDS each (from its
# seed corpus; new inputs go to build/fuzz/corpus, crashes to build/fuzz/artifacts).
FUZZ_SECONDS ?= 60
fuzz: deps-sanitize
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz -j $(JOBS)
	scripts/fuzz.sh $(FUZZ_SECONDS)

serve: site
	node scripts/serve.mjs --port $(PORT) --root web

# wasm-bench runs both builds of bench/bench_core.cpp (native, and wasm under Node) itself, prints
# their output and ratios, then the JS API, Chromium and payload figures beside them.
bench: native site
	node bench/wasm-bench.mjs

# Deliberately rewrites tests/golden/*.json from cases.tsv; review the diff before committing.
goldens: native
	scripts/regenerate-goldens.sh

clean:
	rm -rf build web/generated dist
