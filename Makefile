# morphhost — the two commands of the quick start, and the pieces they use.
#   make run    install what is missing, build, run the main job
#   make test   install what is missing, build, run every test and lint
SWIFT ?= swift
CONFIG ?= debug
BIN = .build/$(CONFIG)/morphhost

.PHONY: run test deps build unit lint lint-swift lint-lua bench clean

run: deps build
	$(BIN) run Plugins/flip.lua

deps:
	@scripts/install-deps.sh

build:
	$(SWIFT) build -c $(CONFIG)

test: deps unit lint

unit:
	$(SWIFT) test --disable-xctest

lint: lint-swift lint-lua

lint-swift:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

lint-lua:
	luacheck --no-color $$(git ls-files '*.lua')

clean:
	rm -rf .build
