# Missive's one test command is `make test`; .ci/run calls it with CI=true.
GO ?= go

.PHONY: test vet unit memory timing fuzz bench build

test: vet unit memory timing

vet:
	$(GO) vet ./...

# Without the profile-guided optimization of cmd/missive/default.pgo, which changes
# speed, not behaviour: with it, cmd/missive's tests compile every package a second
# time (from a cold cache on 2 cores, 204 s against 98 s).
unit:
	$(GO) test -race -pgo=off ./...

# Memory ceilings are measured without the race detector, whose shadow memory would
# swamp them (the tests skip themselves under -race).
memory:
	$(GO) test -count=1 -run '^TestGIFMemory$$' ./render/

# Time limits too: the race detector's slowdown would swamp them.
timing:
	$(GO) test -count=1 -run '^(TestLoneKingBuiltWithinTime|TestOptimumEndsSearchEarly)$$' ./engine/

# Short fuzzing sessions over every fuzz target (not part of `make test`).
FUZZTIME ?= 20s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

build:
	$(GO) build -o bin/missive ./cmd/missive
