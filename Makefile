# Iris: `make test` (install deps, build, run the tests) and `make demo` (thumbnail sample images).
SWIFT ?= swift
DEMO := demo-output

.PHONY: test demo deps build clean bad-input-corpus

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build --build-tests

test: build
	$(SWIFT) test --skip-build

demo: deps
	$(SWIFT) build -c release --product iris
	.build/release/iris samples --out $(DEMO)/samples
	.build/release/iris thumbnail --size 256 --jobs 2 --animated --out $(DEMO)/thumbnails $(DEMO)/samples/*
	.build/release/iris thumbnail --size 160x160 --fill --format webp --out $(DEMO)/thumbnails-webp $(DEMO)/samples/*
	.build/release/iris sheet --size 240 --out $(DEMO) $(DEMO)/samples/*
	.build/release/iris info $(DEMO)/samples/* $(DEMO)/thumbnails/*
	@echo "Thumbnails are in $(DEMO)/thumbnails and $(DEMO)/thumbnails-webp; the contact sheet is $(DEMO)/index.html"

# The bad inputs the tests make (truncated, bit-flipped, lying sizes, bombs, HTML...), kept as
# files for fuzzers and sanitizer runs of other tools.
bad-input-corpus: build
	IRIS_KEEP_CORPUS=$(CURDIR)/bad-input-corpus $(SWIFT) test --skip-build --filter BadInputTests
	@echo "The corpus is in bad-input-corpus/"

clean:
	rm -rf .build $(DEMO)
