# innofork: a patched InnoDB on MySQL 9.7.2.  `make help` lists the targets.
SHELL := /bin/bash
PRESET ?= release
export PRESET

.PHONY: help run stop status deps source prepare build test fast-test \
        refresh-patches clean bench test-compat test-arm test-throttled

help:
	@echo "make run              build the release fork, start it on ./var (PORT=3307) and print how to connect"
	@echo "make stop             stop the server started by make run"
	@echo "make status           is it running?"
	@echo "make test             fast tier, debug build, MTR (our suites + upstream smoke; again with"
	@echo "                      innodb_trx_throttling=3 those of our tests the gate can change), harness"
	@echo "                      mutations and smoke; ends 'N passed, N failed, N skipped'"
	@echo "make test-throttled   make test with every test of our suites in the innodb_trx_throttling=3 stage"
	@echo "                      (make test runs there only those whose verdict the gate can change)"
	@echo "make fast-test        the fast tier only: patch check, unit tests (plain and TSan), script and harness tests; no server"
	@echo "make test-compat      builds stock and debug, then the data directory round trip stock -> fork"
	@echo "                      with B-link tables -> stock, and stock (every innodb_force_recovery level)"
	@echo "                      then the fork after a crash (not in make test; FORK_PRESET=release to use that)"
	@echo "make test-arm         cross-build the debug fork for aarch64 and run it under qemu-user: unit"
	@echo "                      tests (plain and TSan), a server with sysbench, an MTR selection"
	@echo "                      (not in make test; about an hour cold, see README \"ARM (aarch64)\")"
	@echo "make build PRESET=p   build a preset: release | debug | stock (pristine 9.7.2, same options)"
	@echo "make prepare          bring build/fork/src up to date with patches/ and our files"
	@echo "make refresh-patches  save edits made in build/fork/src back into the repository"
	@echo "                      (NEW=NNNN-name.patch for upstream files no patch owns yet)"
	@echo "make bench            build release, stock and go-tpc, then benchmarks/run \$$BENCH"
	@echo "                      (BENCH='--profile quick|full|io ...'; see benchmarks/README.md)"
	@echo "make deps             install the Debian packages and the deb-src entry"
	@echo "make source           fetch and verify the MySQL 9.7.2 source"
	@echo "make clean            remove build/ (keeps ./var, the data directory, and the download cache)"
	@echo "Variables: BENCH, PRESET, PORT, VARDIR, DATADIR, MYSQL_TARBALL, MYSQL_SOURCE_DIR, FULL=1, JOBS (see README)"

deps:
	@bash scripts/deps.sh

source: deps
	@bash scripts/fetch-source.sh >/dev/null

prepare: source
	@bash scripts/build.sh debug --prepare-only

build: source
	@bash scripts/build.sh $(PRESET)

run: build
	@bash scripts/server.sh start

stop:
	@bash scripts/server.sh stop

status:
	@bash scripts/server.sh status

test: deps
	@bash scripts/test.sh

test-throttled: deps
	@THROTTLED=all bash scripts/test.sh

fast-test: deps
	@FAST_ONLY=1 bash scripts/test.sh

test-compat: source
	@bash scripts/build.sh stock && bash scripts/build.sh $${FORK_PRESET:-debug}
	@bash scripts/test-compat.sh

test-arm: source
	@bash scripts/test-arm.sh

bench: source
	@bash scripts/build.sh release && bash scripts/build.sh stock && bash benchmarks/tools/build-go-tpc.sh
	@benchmarks/run $(BENCH)

refresh-patches:
	@python3 scripts/tree.py refresh build/stock/src build/fork/src $(if $(NEW),--new $(NEW))$(if $(ADD), --add $(ADD))

clean:
	rm -rf build
