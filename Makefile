# Iris: `make test` (install deps, build, run the tests) and `make demo` (thumbnail sample images).
SWIFT ?= swift
DEMO := demo-output

.PHONY: test demo deps build clean

deps:
	scripts/install-deps

build: deps
	$(SWIFT) build --build-tests

test: build
	$(SWIFT) test --skip-build

demo: deps
	$(SWIFT) build -c release --product iris
	.build/release/iris samples --out $(DEMO)/samples
	.build/release/iris thumbnail --size 256 --jobs 2 --out $(DEMO)/thumbnails $(DEMO)/samples/*
	.build/release/iris thumbnail --size 160x160 --fill --format webp --out $(DEMO)/thumbnails-webp $(DEMO)/samples/*
	.build/release/iris info $(DEMO)/samples/* $(DEMO)/thumbnails/*
	@echo "Thumbnails are in $(DEMO)/thumbnails and $(DEMO)/thumbnails-webp"

clean:
	rm -rf .build $(DEMO)
