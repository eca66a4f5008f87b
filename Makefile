# Iris: `make test` (install deps, build, run the tests) and `make demo` (thumbnail sample images).
SWIFT ?= swift
DEMO := demo-output
# The `iris` tool is the IrisCLI executable target (not a product, so an app that adds Iris never
# resolves its argument parser); `make install` copies it to $(PREFIX)/bin/iris.
IRIS := .build/release/IrisCLI
PREFIX ?= /usr/local
# The tool is built with the Swift runtime and Foundation linked in (`iris info` starts in a third
# of the time; libavif, libheif, libjxl, FFmpeg and libcurl are opened on first use, see Package.swift).
# The link still lists libcurl (FoundationNetworking names it), though the tool's own stubs define
# every libcurl function it calls: once no libcurl symbol is left undefined, that entry is dropped,
# and 29 libraries with it.
TOOL_BUILD := $(SWIFT) build -c release --static-swift-stdlib --product IrisCLI && \
	if nm -D --undefined-only $(IRIS) | grep -q ' curl_'; then echo "iris still calls libcurl directly: kept"; \
	else patchelf --remove-needed libcurl.so.4 $(IRIS); fi

.PHONY: test test-library lint demo deps build tool install clean bad-input-corpus fuzz fuzz-build fuzz-replay docs test-server serve image check-deploy

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build --build-tests

# The release `iris` (.build/release/IrisCLI) that `make demo`, `make install` and the benchmarks run.
tool: deps
	$(TOOL_BUILD)

# The tests of the two packages, each suite run once: the library's (`test-library`), then the
# service's (`test-server`, a package of its own, with other tests). Nothing runs twice and a
# failure fails at once: there is no second attempt (a retry that turns red into green hides real
# races). No test waits on the machine's speed: time is driven through the clocks the code takes,
# the test server's steps and the bytes a test looks at mid-way are released by the test, and
# every deadline (10 minutes) is only a hang detector.
test: test-library test-server

# Before the run, scripts/sanitizer-tests checks that each suite of the build is in one of its lists
# (thread, address or neither): a new suite is never left out of the sanitizer runs in silence.
test-library: build
	scripts/sanitizer-tests check
	$(SWIFT) test --skip-build

# swift format (the toolchain's, configured by .swift-format) on every Swift file of the project
# (the library, the service, the tests, the examples and the benchmarks; not the build folders),
# the public API of Iris, IrisUI and the service's IrisServer and IrisServerCore (built in
# Server/) against their baselines (scripts/public-api --check: a public change comes with
# api/MODULE.txt; the Apple-built API of Iris and IrisUI, views included, is checked exactly
# against api/*.ios.txt and api/*.macos.txt by scripts/typecheck-apple where the SDKs are, and here,
# without them, every public declaration must at least be named in a baseline: scripts/check-apple-api),
# the generated lazy-library stubs against their generator,
# the library's folders depending only downwards (scripts/check-layers, the order of docs/ARCHITECTURE.md),
# every path and make target the documents name being real (scripts/check-docs), and each file of
# the test support that reads Iris's internals or uses swift-testing being inside `#if IRIS_TESTABLE`
# (the benchmarks build that module in release, where Iris is not built for testing).
lint:
	$(SWIFT) format lint --strict --configuration .swift-format \
		$$(find Sources Tests Server/Sources Server/Tests Examples Benchmarks -name '*.swift' -not -path '*/.build*' | sort)
	scripts/public-api --check Iris
	scripts/public-api --check IrisUI
	scripts/public-api --check IrisServer
	scripts/public-api --check IrisServerCore
	scripts/check-apple-api
	scripts/make-lazy-codec-stubs --check
	scripts/check-layers
	scripts/check-docs
	@outside=$$(grep -lE '^(@testable import|import Testing)' $$(find Tests/IrisTestSupport -name '*.swift') | xargs -r grep -L '^#if IRIS_TESTABLE'); \
	if [ -n "$$outside" ]; then echo "lint: not inside #if IRIS_TESTABLE (the benchmarks build it in release): $$outside"; exit 1; fi

# The image service (Server/, a package of its own, so an app that adds Iris never resolves
# Hummingbird): its build, with its tests, and its suite. Run by `test` after the library's.
# Then, in a network namespace of its own, proof that a refused address receives nothing (the
# script skips, saying why, where `unshare -rn` is not permitted).
test-server:
	cd Server && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build
	scripts/serve-netns-test Server/.build/debug/iris-server

# Builds and starts the image service in development mode (unsigned URLs) on 127.0.0.1:8080,
# with the demo's sample images as local:// sources and the playground at /playground. Ctrl-C stops it.
SERVE_PORT ?= 8080
serve: tool
	$(IRIS) samples --out $(DEMO)/samples
	cd Server && $(SWIFT) build -c release --product iris-server && $(SWIFT) build -c release --product iris-video-poster
	@echo "Sample sources: $$(cd $(DEMO)/samples && ls | sed 's|^|local:///|' | tr '\n' ' ')"
	@echo "Playground: http://127.0.0.1:$(SERVE_PORT)/playground"
	@echo "Try: curl -o out.webp http://127.0.0.1:$(SERVE_PORT)/unsafe/rs:fill:300:200/g:sm/plain/local:///$$(cd $(DEMO)/samples && ls | head -1)@webp"
	Server/.build/release/iris-server --dev --video --port $(SERVE_PORT) --local-root $(CURDIR)/$(DEMO)/samples

# The service's container image, iris-server:latest (Server/Containerfile), built with buildah
# without a registry: the Debian base made by debootstrap when missing, the binaries built here
# (static Swift runtime), then checked: size, user, and a signed URL served by the entrypoint
# under `buildah run`, stopped by SIGTERM (scripts/build-image; VIDEO=1 for iris-server:video,
# with FFmpeg and iris-video-poster). Not part of `make test`.
image:
	scripts/build-image

# deploy/kubernetes/ against Kubernetes' schemas (kubernetes-validate --strict) and checkov's
# Kubernetes checks (both from PyPI, installed on first use in a virtual environment of their own,
# .build-deploy-venv, not committed). Not part of `make test`.
DEPLOY_VENV ?= .build-deploy-venv
KUBERNETES_VALIDATE ?= $(DEPLOY_VENV)/bin/kubernetes-validate
CHECKOV ?= $(DEPLOY_VENV)/bin/checkov
$(DEPLOY_VENV)/bin/checkov:
	python3 -m venv $(DEPLOY_VENV)
	$(DEPLOY_VENV)/bin/pip install -q kubernetes-validate checkov

check-deploy: $(DEPLOY_VENV)/bin/checkov
	$(KUBERNETES_VALIDATE) --strict deploy/kubernetes/*.yaml
	$(CHECKOV) -d deploy/kubernetes --framework kubernetes --compact --quiet --skip-download

demo: tool
	$(IRIS) samples --out $(DEMO)/samples
	$(IRIS) thumbnail --size 256 --jobs 2 --animated --out $(DEMO)/thumbnails $(DEMO)/samples/*
	$(IRIS) thumbnail --size 160x160 --fill --format webp --out $(DEMO)/thumbnails-webp $(DEMO)/samples/*
	$(IRIS) sheet --size 240 --out $(DEMO) $(DEMO)/samples/*
	$(IRIS) info $(DEMO)/samples/* $(DEMO)/thumbnails/*
	@echo "Thumbnails are in $(DEMO)/thumbnails and $(DEMO)/thumbnails-webp; the contact sheet is $(DEMO)/index.html"

install: tool
	install -D -m 755 $(IRIS) $(DESTDIR)$(PREFIX)/bin/iris

# The documentation of Iris and IrisUI (DocC catalogs in Sources/*/*.docc) as one static site in
# docs-site/, with the toolchain's docc and compiler-emitted symbol graphs (its own scratch path,
# so the test build is untouched); IrisUI's views are included when the Apple SDKs are set up.
docs: deps
	scripts/build-docs

# The bad inputs the tests make (truncated, bit-flipped, lying sizes, bombs, HTML...), kept as
# files for fuzzers and sanitizer runs of other tools.
bad-input-corpus: build
	IRIS_KEEP_CORPUS=$(CURDIR)/bad-input-corpus $(SWIFT) test --skip-build --filter BadInputTests
	@echo "The corpus is in bad-input-corpus/"

# Fuzzing (libFuzzer + AddressSanitizer) of Iris's own parsers: Fuzz/ is a separate package.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= FuzzDecode FuzzDecodeAtTarget FuzzHeader FuzzDataCacheEntry FuzzProgressivePrefix FuzzAnimation FuzzAPNG \
  FuzzAVIF FuzzHEIF FuzzJXL FuzzVideo
FUZZ_FLAGS := -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xcc -fsanitize=fuzzer-no-link,address

fuzz-build: deps
	cd Fuzz && $(SWIFT) build $(FUZZ_FLAGS)

# The animation targets (FuzzAVIF decodes animated AVIF too) run without LeakSanitizer, at
# exit as well (ASAN_OPTIONS): their frame buffer's decode-ahead worker can still hold an input
# when libFuzzer checks, and LeakSanitizer takes Data's storage pointer (enum tag bits set) for a
# leak. FuzzDecode, with leak checks, decodes the same frame readers' first frames.
# Runs each target for FUZZ_SECONDS, all of them even when one fails; each one's output (with
# libFuzzer's final stats: executions, exec/s, coverage) goes to Fuzz/logs/<target>.log. New
# corpus entries stay in Fuzz/corpus (not in git); crashes land in Fuzz/crashes: minimise them
# (`-minimize_crash=1`) into Fuzz/regressions/<target>/.
fuzz: fuzz-build
	scripts/make-fuzz-seeds
	cat Fuzz/dictionaries/*.dict > Fuzz/.build/all.dict
	mkdir -p Fuzz/crashes Fuzz/logs
	failed=""; for target in $(FUZZ_TARGETS); do \
	  mkdir -p Fuzz/corpus/$$target; \
	  case $$target in FuzzAnimation|FuzzAPNG|FuzzAVIF|FuzzVideo) leaks=-detect_leaks=0 asan=detect_leaks=0;; *) leaks= asan=;; esac; \
	  ASAN_OPTIONS=$$asan SWIFT_BACKTRACE=enable=no Fuzz/.build/release/$$target $$leaks -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -rss_limit_mb=2048 -dict=Fuzz/.build/all.dict -artifact_prefix=Fuzz/crashes/$$target- \
	    -print_final_stats=1 Fuzz/corpus/$$target Fuzz/seeds > Fuzz/logs/$$target.log 2>&1 || failed="$$failed $$target"; \
	  echo "$$target: $$(grep -E '^#[0-9]+ +DONE' Fuzz/logs/$$target.log | tail -1)"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed (see Fuzz/logs, Fuzz/crashes)"; exit 1; fi

# Replays the committed regression corpus (every crash found, minimised) once per input.
fuzz-replay: fuzz-build
	for target in $(FUZZ_TARGETS); do \
	  files=$$(ls Fuzz/regressions/$$target/* 2>/dev/null || true); \
	  if [ -n "$$files" ]; then SWIFT_BACKTRACE=enable=no Fuzz/.build/release/$$target -timeout=10 $$files || exit 1; fi; \
	done

clean:
	rm -rf .build $(DEMO)
