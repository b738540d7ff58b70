# morphhost — the two commands of the quick start, and the pieces they use.
#   make run    install what is missing, build, run Plugins/flip.lua live
#   make test   install what is missing, build, run every test and lint
#   make install  a release build, copied to $(PREFIX)/bin (plugins are inside it)
SWIFT ?= swift
PREFIX ?= /usr/local
CONFIG ?= debug
BIN = .build/$(CONFIG)/morphhost

.PHONY: run test deps build install unit lint lint-swift lint-lua example readme-commands bench clean \
	fuzz test-sanitize docs

run: deps build
	$(BIN) run Plugins/flip.lua

deps:
	@scripts/install-deps.sh

build:
	$(SWIFT) build -c $(CONFIG)

# The binary carries the bundled plugins and its Lua, so it runs from anywhere.
# Without the ReferenceBenchmarks trait: no reference programs in the shipped binary.
install: deps
	$(SWIFT) build -c release --disable-default-traits
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --disable-default-traits --show-bin-path)/morphhost" \
	  "$(DESTDIR)$(PREFIX)/bin/morphhost"

test: deps unit lint

unit:
	$(SWIFT) test --disable-xctest

lint: lint-swift lint-lua

lint-swift:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Examples/EmbedHost Fuzz

lint-lua:
	luacheck --no-color $$(git ls-files '*.lua')

# The embedding example: its own package, depending on this one by path.
example: deps
	cd Examples/EmbedHost && $(SWIFT) run EmbedHost ../../Plugins/flip.lua "$$(mktemp -d)"

# Every `morphhost …` command in the sh blocks of the README and docs/*.md.
readme-commands: build
	CONFIG=$(CONFIG) scripts/readme-commands.sh

# DocC for the libraries (MorphCore, MorphScript, MorphRender, MorphHost, MorphSession,
# MorphExport) into
# .build/docs/morphhost.doccarchive; a DocC warning fails.
docs: deps build
	SWIFT=$(SWIFT) CONFIG=$(CONFIG) scripts/docs.sh

# libFuzzer targets (Fuzz/), FUZZ_SECONDS each (default 600); a crash fails.
FUZZ_SECONDS ?= 600
fuzz: deps
	scripts/fuzz.sh $(FUZZ_SECONDS)

# The whole suite under AddressSanitizer (Swift and C) and
# UndefinedBehaviorSanitizer (the C targets: Swift has no UBSan on Linux).
# Leak checking is off: fontconfig and Foundation keep caches until exit,
# which LeakSanitizer reports in every child process the tests start.
test-sanitize: deps
	ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(SWIFT) test --disable-xctest --sanitize=address \
	  -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined --build-path .build/sanitize

bench: deps
	$(SWIFT) build -c release
	.build/release/morphhost bench

clean:
	rm -rf .build Examples/EmbedHost/.build
