# edgegraph: build, test, demo and benchmark.
#
#   make          install what is missing, build the native test binary and the .wasm
#   make test     C tests (ASan + UBSan), JS tests on the real .wasm, .d.ts check
#   make demo     serve the browser demo on http://127.0.0.1:8080/web-demo/ (PORT=...)
#   make demo-cli the research-assistant graph in Node, printing its trace
#   make bench    edgegraph beside LangGraph.js, with ratios
#   make size     .wasm and JS sizes, raw and gzip
#   make clean
#
# Settings you may override (make VAR=value):
#   CC        host compiler for the native test build      (clang)
#   EMCC      Emscripten compiler for the product          (emcc)
#   BUILD     build folder, never committed                (build)
#   V=1       print every command
# ---- end of user settings -------------------------------------------------

CC      ?= clang
EMCC    ?= emcc
BUILD   ?= build
V       ?= 0
PORT    ?= 8080

ifeq ($(CC),cc)
CC := clang
endif

Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-6s %s\n' $(1) $(2))

CJSON_DIR := $(BUILD)/third_party/cjson
CORE_SRC  := $(wildcard src/*.c)
CORE_HDR  := $(wildcard src/*.h) src/eg_codes.def
TEST_SRC  := $(wildcard tests/c/*.c)
WASM      := wasm/edgegraph.wasm
JS_SRC    := $(wildcard js/*.js js/langgraph/*.js)
# One bundled file per entry point: Node loads one module instead of nine
# (8 ms of a cold start). The .wasm is a separate file, copied beside them:
# the entries load it from beside the module (./edgegraph.wasm).
DIST      := dist/node.js dist/browser.js dist/workerd.js dist/index.js dist/tokenizer.js dist/testing.js dist/langgraph.js dist/edgegraph.wasm
# The providers other than OpenAI chat: loaded on first use, never inlined (llm.js)
DIST      += dist/provider-anthropic.js dist/provider-gemini.js dist/provider-responses.js dist/provider-ai-sdk.js
# Likewise tracing (an engine with a tracer) and MCP tools (mcpTools())
DIST      += dist/tracing.js dist/mcp.js
# and stream modes (stream({ streamMode }))
DIST      += dist/stream-run.js
# edgegraph/langgraph under the node condition (package.json "exports")
DIST      += dist/langgraph-node.js
# the node condition's entry where the runtime lacks require(esm) (node-compat.js)
DIST      += dist/node-compat.js
# edgegraph/langgraph/zod: Zod states' reducers, apart from edgegraph/langgraph (which it imports)
DIST      += dist/langgraph-zod.js
# Exact BPE tables, generated from the js-tiktoken npm package at build time.
ENCODINGS := dist/encodings/o200k_base.js dist/encodings/cl100k_base.js

WARN := -Wall -Wextra -Wshadow -Wconversion -Wno-sign-conversion -Wstrict-prototypes -Wmissing-prototypes

# Native test build: the same sources with AddressSanitizer (and its leak
# checker) and UndefinedBehaviorSanitizer; any report fails the test.
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
TEST_BIN := $(BUILD)/native/edgegraph-tests

# The JS bundles (esbuild). Each flag, and why:
# one ES module per entry point, for every runtime from Node 18 and browsers of 2022
BUNDLE := --bundle --format=esm --target=es2022
# no runtime assumed: each entry picks its own (node:fs only in the node entry)
BUNDLE += --platform=neutral --external:node:fs --external:node:fs/promises --external:node:path --external:node:module
# loaded at run time from beside the bundle, never inlined. The LLM stack stays
# in (measured: all of it out of dist/node.js saves 2.8M of the ~63M instructions
# of a cold start, and what the synchronous API needs at once, new ChatClient's
# checks, LLMError, createAgentNode's tool and schema checks, is half of it)
BUNDLE += --external:./edgegraph.wasm --external:./encodings/* --external:./provider-* --external:./tracing.js --external:./mcp.js --external:./stream-run.js
# edgegraph/langgraph imports the package's own entry (its runtime condition), never a copy
BUNDLE += --external:edgegraph
# the first line of every bundle
BANNER := --banner:js='// edgegraph: bundled from js/ by make, names kept; edit the sources there.'
# no indentation and shorter syntax, but names kept (no --minify-identifiers: a stack
# trace names our functions) and lines of ~80 characters (a stack trace shows a
# line of code, not kilobytes of one-line bundle): V8 parses the whole bundle at
# import, and 30% fewer bytes are ~3M fewer instructions of a cold start
BUNDLE += --minify-whitespace --minify-syntax --line-limit=80
# a source map per bundle: frames name js/ files and lines (node --enable-source-maps,
# devtools). The maps point at js/*.js, which ship in the package, instead of
# holding a copy of the sources each (sourcesContent): ~100 KB less in the tarball
BUNDLE += --sourcemap --sources-content=false
BUNDLE += --log-level=warning

# WebAssembly product build. Each flag, and why:
# smallest code: the core is not hot enough for -O2 to pay for its size
EMFLAGS := -Oz
# memcpy and memset as the memory.copy/fill instructions (every runtime we
# target has them: Node 16+, browsers of 2021, workerd): less code and no calls
EMFLAGS += -mbulk-memory
# a double to int in one instruction (not a guarded sequence), sign extension
# likewise: every runtime that has bulk memory has both (Safari 15, Node 16, workerd)
EMFLAGS += -mnontrapping-fptoint -msign-ext
# a reactor: a library with no main()
EMFLAGS += --no-entry
# no Emscripten JS glue (3.1.6's glue fails on Node 20): js/loader.js instead
EMFLAGS += -sSTANDALONE_WASM
# states can be large: memory grows instead of trapping
EMFLAGS += -sALLOW_MEMORY_GROWTH
# a small start helps cold start and footprint
EMFLAGS += -sINITIAL_MEMORY=2MB
# cJSON recursing to its 1000-level nesting limit fits in this
EMFLAGS += -sTOTAL_STACK=512KB
# emmalloc for large blocks only: src/eg_slab.c is the .wasm's malloc, size
# classes for the small blocks that are nearly all of them (dlmalloc cost
# ~2.5 KB gzip more; emmalloc alone slowed appends 2.5x with 100k live messages)
EMFLAGS += -sMALLOC=emmalloc
EMFLAGS += -sERROR_ON_UNDEFINED_SYMBOLS=1
# numbers as text come from the host (src/eg_number.c): these are its imports
EMFLAGS += --js-library wasm/host-imports.js
# the ABI: exactly the functions listed in wasm/exports.txt
EMFLAGS += -sEXPORTED_FUNCTIONS=$(shell grep -v '^\#' wasm/exports.txt | sed 's/^/_/' | paste -sd, -)

.PHONY: fuzz fuzz-build test-fuzz soak demo-cli all native wasm js test test-c test-js typecheck demo bench size clean tools npm

all: wasm js native

js: $(DIST) $(ENCODINGS)

$(ENCODINGS): scripts/build-encodings.js package-lock.json | npm
	$(Q)node scripts/build-encodings.js

# The Makefile too: a change of the flags above rebuilds the bundles.
dist/%.js: js/%.js $(JS_SRC) Makefile | npm
	$(call say,BUNDLE,$@)
	$(Q)node_modules/.bin/esbuild $< $(BUNDLE) \
		$(BANNER) --outfile=$@

# edgegraph/langgraph in chunks (esbuild's code splitting): the entry and the graph
# API at import; what a run needs (stream.js) and what only some programs call
# (getState, ToolNode, ...) in chunks dist/lg-*.js loaded on first use, code they share
# with the entry in one chunk of its own (one copy: one class per error, one
# store per saver). Chunk names carry a hash of their content: the old ones go first.
dist/langgraph.js: js/langgraph.js $(JS_SRC) Makefile | npm
	$(call say,BUNDLE,$@)
	$(Q)rm -f dist/lg-*
	$(Q)node_modules/.bin/esbuild $< $(BUNDLE) --splitting --outdir=dist --entry-names=[name] --chunk-names=lg-[name]-[hash] \
		$(BANNER)

# edgegraph/langgraph for Node, Deno and Bun: the same bundle, importing ./node.js
# (the file `edgegraph` resolves to under node's module-sync condition: one engine;
# runtimes without it get langgraph.js and node-compat.js) instead
# of the bare `edgegraph`, whose package lookup is ~1 ms of its cold start.
# The stream-mode code its invoke() runs is inlined, not imported from
# ./stream-run.js: a third module to read and compile cost ~1.8M instructions
# (~0.3 ms) of its cold start. Nothing bundles this file, so the one-copy rule
# of the browser bundles buys nothing here; stream-run.js keeps no state of
# its own (its key is Symbol.for), so a second copy in the process is harmless.
# Likewise one file, no chunks: the modules langgraph.js loads on first use are
# in it (esbuild bundles an import() of one), as a server reads no chunk lazily.
dist/langgraph-node.js: js/langgraph.js $(JS_SRC) Makefile | npm
	$(call say,BUNDLE,$@)
	$(Q)node_modules/.bin/esbuild $< $(filter-out --external:./stream-run.js,$(BUNDLE)) --alias:edgegraph=./node.js --external:./node.js \
		$(BANNER) --outfile=$@

# node.js beside it, imported, never a copy: one engine
dist/node-compat.js: js/node-compat.js $(JS_SRC) Makefile | npm
	$(call say,BUNDLE,$@)
	$(Q)node_modules/.bin/esbuild $< $(BUNDLE) --external:./node.js $(BANNER) --outfile=$@

dist/edgegraph.wasm: $(WASM)
	$(Q)mkdir -p dist
	$(Q)cp $< $@

tools:
	$(Q)scripts/need.sh apt $(CC) clang
	$(Q)scripts/need.sh apt emcc emscripten
	$(Q)scripts/need.sh cjson $(CJSON_DIR)

npm:
	$(Q)scripts/need.sh npm

$(CJSON_DIR)/cJSON.c:
	$(Q)scripts/need.sh cjson $(CJSON_DIR)

native: $(TEST_BIN)

$(TEST_BIN): $(CORE_SRC) $(CORE_HDR) $(TEST_SRC) tests/c/*.h $(CJSON_DIR)/cJSON.c
	$(Q)scripts/need.sh apt $(CC) clang
	$(call say,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -std=c11 -g -O1 -DEG_DEBUG $(SAN) $(WARN) -Isrc -I$(CJSON_DIR) \
		-DFIXTURES_DIR='"tests/fixtures"' $(CORE_SRC) $(TEST_SRC) $(CJSON_DIR)/cJSON.c -o $@ -lm

wasm: $(WASM)

$(WASM): $(CORE_SRC) $(CORE_HDR) wasm/exports.txt wasm/host-imports.js $(CJSON_DIR)/cJSON.c Makefile
	$(Q)scripts/need.sh apt emcc emscripten
	$(call say,EMCC,$@)
	$(Q)NODE_PATH=/usr/share/nodejs $(EMCC) -std=c11 $(WARN) -Isrc -I$(CJSON_DIR) $(EMFLAGS) \
		$(CORE_SRC) $(CJSON_DIR)/cJSON.c -o $@
	@# binaryen (emcc's own wasm-opt) again, to a fixed point: ~0.1 KB gzip less than emcc's one pass
	$(Q)wasm-opt -Oz --converge --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext $@ -o $@

test: typecheck test-c test-fuzz test-js

test-c: $(TEST_BIN)
	@echo "==> C tests (native, ASan + UBSan)"
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 $(TEST_BIN)

test-js: $(WASM) $(DIST) $(ENCODINGS) $(CJSON_DIR)/cJSON.c npm
	$(Q)scripts/need.sh apt chromium chromium
	@echo "==> JS tests (node --test, real .wasm) and the runtime matrix from the packed tarball"
	$(Q)node --test --import ./tests/leak-guard.js tests/js/ tests/langgraph/ tests/runtimes/ tests/web-demo/ tests/bundlers/ tests/typescript/ tests/docs/ examples/cloudflare/

# Fuzzing: libFuzzer with ASan and UBSan over the same sources. `make fuzz`
# runs each target FUZZ_SECONDS (60); `make test` runs each 5 seconds.
FUZZ_TARGETS := graph checkpoint submit history state json
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
FUZZ_SECONDS ?= 60

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/c/json_read_diff.h $(CORE_SRC) $(CORE_HDR) $(CJSON_DIR)/cJSON.c
	$(call say,FUZZ,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -I$(CJSON_DIR) \
		$< $(CORE_SRC) $(CJSON_DIR)/cJSON.c -o $@ -lm

fuzz-build: $(FUZZ_BINS) $(WASM) $(DIST)
	$(Q)node tests/fuzz/seed-corpus.js

fuzz: fuzz-build
	$(Q)for t in $(FUZZ_TARGETS); do echo "==> fuzz_$$t ($(FUZZ_SECONDS) s)"; \
		$(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus/$$t > $(BUILD)/fuzz/$$t.log 2>&1; rc=$$?; \
		grep -E "^Done|SUMMARY" $(BUILD)/fuzz/$$t.log; \
		if [ $$rc -ne 0 ]; then echo "fuzz_$$t found a problem: see $(BUILD)/fuzz/$$t.log and the crash-* input in $(BUILD)/fuzz/"; exit 1; fi; done

test-fuzz: fuzz-build
	@echo "==> fuzz targets: past findings, then 5 s each (libFuzzer, ASan + UBSan)"
	$(Q)for f in tests/fuzz/regressions/*; do t=$$(basename $$f | cut -d- -f1); \
		$(BUILD)/fuzz/fuzz_$$t $$f > $(BUILD)/fuzz/regression.log 2>&1 || { tail -30 $(BUILD)/fuzz/regression.log; exit 1; }; done
	$(Q)for t in $(FUZZ_TARGETS); do \
		$(BUILD)/fuzz/fuzz_$$t -max_total_time=5 -rss_limit_mb=2048 -artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus/$$t > $(BUILD)/fuzz/$$t.log 2>&1 || { tail -30 $(BUILD)/fuzz/$$t.log; exit 1; }; \
		printf '  fuzz_%-11s %s\n' $$t "$$(grep -E '^Done' $(BUILD)/fuzz/$$t.log)"; done

typecheck: npm
	@echo "==> type check of js/index.d.ts (tsc --noEmit)"
	$(Q)node_modules/.bin/tsc -p tests/types/tsconfig.json
	@echo "types: ok"

demo: $(WASM) $(DIST) npm
	@echo "==> serving the browser demo (offline simulator by default); Ctrl-C to stop"
	$(Q)node scripts/serve.js $(PORT)

# The same research-assistant graph in Node, printing its trace.
demo-cli: $(WASM) $(DIST)
	$(Q)node examples/research-assistant.js

soak: $(WASM) $(DIST)
	$(Q)node --expose-gc bench/soak.js

bench: $(WASM) $(DIST) $(ENCODINGS) npm
	$(Q)node --expose-gc bench/run.js

size: $(WASM) $(DIST)
	$(Q)node scripts/size.js

clean:
	rm -rf $(BUILD) $(WASM) dist
