# OpenBench's build contract: `make EXE=path [EVALFILE=net.nnue]` builds the
# engine to `path`, optimised for the machine that builds it, with the network
# in EVALFILE embedded instead of the shipped one.
EXE ?= fianchetto
EVALFILE ?=

# Cargo runs the build script in crates/eval: pass it an absolute path.
ifneq ($(strip $(EVALFILE)),)
override EVALFILE := $(abspath $(EVALFILE))
export EVALFILE
endif

.PHONY: all clean

all:
	cargo rustc --release -p fianchetto-engine --bin fianchetto -- -C target-cpu=native --emit link=$(abspath $(EXE))

clean:
	cargo clean
