# seedplan — see README.md. `make run` plans the embedded example landscape, `make test` runs every test.
SHELL    := /bin/bash
.SHELLFLAGS := -o pipefail -ec
GO       ?= go
BIN      := bin/seedplan
# The conformance test compares every greedy decision with the real gardener-scheduler; it is a module of its own.
CONFORMANCE := test/conformance

.PHONY: all deps build run test test-unit test-race test-conformance conformance-long vet fmt example clean bench-solver bench-capacity bench bench-load bench-wholerun bench-cluster bench-binding bench-peer fuzz soak control-plane image

all: build

deps:
	@hack/install-deps.sh

build: deps
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/seedplan # the commit for seedplan version and seedplan_build_info

# The OCI image, without a registry or base image: the binary, the CLP libraries it links and the loader, as an
# OCI layout (bin/image) and a tarball for docker/podman load or kind load image-archive (bin/seedplan-image.tar),
# tagged seedplan:latest (what examples/deploy runs) and seedplan:<commit>.
image: build
	$(GO) run ./hack/image --binary $(BIN) --dir bin/image --tar bin/seedplan-image.tar

run: build
	./$(BIN) schedule -o wide

test: deps vet test-unit test-race test-conformance

vet:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd $(CONFORMANCE) && $(GO) vet ./...

# The packages that decode, solve, plan, bind, loop and log on several goroutines. test-race runs every test they
# have; test-unit runs ingest's again without the race detector, as two of them skip under it (what a load
# allocates), and leaves the others to test-race, which would only run the same tests a second time.
RACE_PACKAGES := ./ingest ./model ./solver ./plan ./bind ./cluster ./cmd/seedplan

# Unit, property and fuzz-seed tests, and the integration tests of ingest, bind, cluster and the CLI against a
# real garden API (etcd, kube-apiserver, gardener-apiserver), beside the real gardener-scheduler, and a
# Pushgateway, built once by hack/build-control-plane.sh (10–18 min on a fresh machine, cached in
# ~/.cache/seedplan afterwards): every package but those test-race runs, and ingest.
test-unit: control-plane
	SEEDPLAN_CONTROL_PLANE=$$(hack/build-control-plane.sh) $(GO) test -count=1 -timeout 30m \
		./ingest $$(comm -23 <($(GO) list ./... | sort) <($(GO) list $(RACE_PACKAGES) | sort))

# RACE_PACKAGES under the race detector (~4 min, and ~5 min more for its first build).
test-race: control-plane
	SEEDPLAN_CONTROL_PLANE=$$(hack/build-control-plane.sh) $(GO) test -race -count=1 -timeout 30m $(RACE_PACKAGES)

# The soak test of the run loop on the real control plane: shoots created at SOAK_RATE per second for
# SOAK_DURATION, each deleted 5 s after it is bound (one in 20 no seed may take, deleted 5 s after it is
# reported); every other shoot bound once, those never, the heap flat and the goroutines back where they began
# (make test runs 20 s at 10/s).
SOAK_DURATION ?= 5m
SOAK_RATE     ?= 20
soak: control-plane
	SEEDPLAN_CONTROL_PLANE=$$(hack/build-control-plane.sh) SEEDPLAN_SOAK_DURATION=$(SOAK_DURATION) SEEDPLAN_SOAK_RATE=$(SOAK_RATE) \
		$(GO) test ./cluster -run '^TestLoopSoak$$' -count=1 -v -timeout 60m 2>&1 | grep -E '^(---|ok|FAIL)|soak_test|seedplan_'

# Builds (first time only) the control-plane binaries the integration tests run.
control-plane:
	@hack/build-control-plane.sh >/dev/null

test-conformance:
	cd $(CONFORMANCE) && $(GO) test -count=1 -timeout 40m -v ./... 2>&1 | grep -v '^=== ' 

# The differential test over 200 generated landscapes per strategy and 20,000 small fuzzed ones that make test
# never compares (about 8–9 minutes here): after a change of the model, or against a new Gardener version.
conformance-long:
	cd $(CONFORMANCE) && SEEDPLAN_CONFORMANCE_LANDSCAPES=200 SEEDPLAN_CONFORMANCE_FIRST_SEED=5000 SEEDPLAN_CONFORMANCE_SMALL_LANDSCAPES=20000 \
		$(GO) test -count=1 -timeout 60m -run '^TestGreedyMatchesGardenerScheduler(OnSmallLandscapes)?$$' -v ./... 2>&1 | grep -v '^=== '

# Regenerates the embedded example landscape (deterministic).
example: build
	rm -rf examples/landscape
	./$(BIN) generate --seeds 40 --shoots 400 --existing 400 --contention 0.8 --seed 7 --dir examples/landscape
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/seedplan # the commit for seedplan version and seedplan_build_info

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin

# The LP benchmarks of README.md (windows up to 50,000 pending shoots x 1,000 seeds); about two minutes.
bench-solver: deps
	/usr/bin/time -v $(GO) test ./plan -run '^$$' -bench Window -benchtime 5x 2>&1 | grep -E '^Benchmark|Maximum resident'

# The capacity question of the README's generated landscapes within the default 2 s budget: new seeds, bound,
# whether proven minimal, and the time; about ten seconds.
bench-capacity: deps
	$(GO) test ./plan -run '^$$' -bench '^BenchmarkCapacity$$' -benchtime 1x | grep -E '^Benchmark'

# The standard benchmark suite: every scenario at 1,000 x 200 and 10,000 x 500, contention-1.0 at 50,000 x 1,000;
# writes the table (results.txt), results.csv, results.json and the plots to bench/results/; then the loading
# benchmark and the whole runs.
bench: build
	mkdir -p bench/results
	./$(BIN) bench --suite standard --repeats 3 --out bench/results | tee bench/results/results.txt
	$(MAKE) --no-print-directory bench-load bench-wholerun

# Loading a landscape of 500 seeds and 15,000 shoots from files, as YAML and as JSON: MB/s of input, and JSON's
# speed per byte as a multiple of YAML's from loads that alternate, and YAML as kubectl writes it; about 30 seconds.
bench-load: deps
	$(GO) test ./ingest -run '^$$' -bench '^BenchmarkLoad$$' -benchtime 20x | grep -E '^Benchmark' | tee bench/results/load.txt

# seedplan schedule as a user runs it, one whole process per landscape (1,000 x 200 up to 50,000 x 1,000) and
# solver: wall time, the window's time and peak memory (bench/results/wholerun.txt and .json); about 2.5 minutes.
bench-wholerun: build
	$(GO) run ./hack/wholerun --bin $(BIN) --out bench/results

# The schedule job on the real control plane: 10,000 pending shoots over 500 seeds, bindings per second, then an
# independent check of every binding; about four minutes.
bench-cluster: control-plane
	SEEDPLAN_CONTROL_PLANE=$$(hack/build-control-plane.sh) $(GO) test ./cluster -run '^$$' -bench ScheduleJob10k -benchtime 1x -timeout 30m 2>&1 | grep -E '^Benchmark|bench_test'

# Bindings per second on the real control plane: a plain loop of bindings (the ceiling) against a window of the
# schedule job, at the old and the current client QPS, each on a fresh control plane; about six minutes; writes
# bench/results/binding.txt.
bench-binding: build control-plane
	SEEDPLAN_CONTROL_PLANE=$$(hack/build-control-plane.sh) SEEDPLAN_BIN=$(CURDIR)/$(BIN) $(GO) test ./cluster -run '^$$' -bench '^BenchmarkBinding$$' -benchtime 1x -timeout 30m 2>&1 | grep -E '^Benchmark|bench_test' | tee bench/results/binding.txt

# seedplan's run loop against the real gardener-scheduler v1.150.0 (built on first use), each a process on a fresh
# control plane: a trickle, a steady stream and a burst of 5,000 shoots; then seedplan's schedule job on the
# burst, with the burst planned as one window by LP and greedy; writes bench/results/peer.{txt,json}.
# About 22–26 minutes, most of it the two trickles and the gardener-scheduler's burst.
bench-peer: build control-plane
	SEEDPLAN_CONTROL_PLANE=$$(hack/build-control-plane.sh) SEEDPLAN_BIN=$(CURDIR)/$(BIN) SEEDPLAN_PEER_OUT=$(CURDIR)/bench/results \
		$(GO) test ./bench/peer -run '^$$' -bench '^BenchmarkPeer$$' -benchtime 1x -timeout 90m -v 2>&1 | grep -vE '^(=== |goos|goarch|pkg|cpu)'

# Fuzzes every parser target for FUZZTIME each (make test runs only their seed corpora). A worker minimizing a new
# interesting input fuzzes nothing meanwhile, and Go's default of 60 s for it could take a whole target's minute.
FUZZTIME ?= 60s
FUZZMINIMIZETIME ?= 10s
FUZZFLAGS = -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZETIME)
# One target at a time; a finding fails it, Go 1.26's spurious deadline (golang/go#75804) does not (hack/fuzz.sh).
FUZZ = GO=$(GO) hack/fuzz.sh
fuzz: deps
	$(FUZZ) ./ingest FuzzDecode $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzTranscodeYAML $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzDecodeFast $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzReadList $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzReadDocuments $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzNestsDeeper $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzTranscodeInParts $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzSplitYAML $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzUTF8Content $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzSplitObjects $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzPlainText $(FUZZFLAGS)
	$(FUZZ) ./ingest FuzzDNSLabel $(FUZZFLAGS)
	$(FUZZ) ./model FuzzParseRegionDistances $(FUZZFLAGS)
	$(FUZZ) ./model FuzzCheckBudget $(FUZZFLAGS)
	$(FUZZ) ./model FuzzNetworksIntersect $(FUZZFLAGS)
	$(FUZZ) ./model FuzzLevenshteinDistance $(FUZZFLAGS)
	$(FUZZ) ./model FuzzParseTaintEffects $(FUZZFLAGS)
	$(FUZZ) ./model FuzzShootSeedSelector $(FUZZFLAGS)
	$(FUZZ) ./model FuzzMaintenanceStart $(FUZZFLAGS)
	$(FUZZ) ./config FuzzParse $(FUZZFLAGS)
	$(FUZZ) ./config FuzzDecodeStrict $(FUZZFLAGS)
	$(FUZZ) ./config FuzzYAMLToJSON $(FUZZFLAGS)
	$(FUZZ) ./config FuzzJSONFault $(FUZZFLAGS)
	$(FUZZ) ./cmd/seedplan FuzzParseReviewed $(FUZZFLAGS)
	$(FUZZ) ./report FuzzJSONPath $(FUZZFLAGS)
	$(FUZZ) ./test/conformance FuzzGreedyMatchesGardenerScheduler $(FUZZFLAGS)
