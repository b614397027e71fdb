# The README's commands, plus lint and bench. `bash .ci/run` runs all of it in a fresh venv.
PYTHON ?= python

.PHONY: install develop lint test bench

install:
	$(PYTHON) -m pip install '.[test]'

# Rebuilds the extension in place (in an active virtualenv) after editing Rust.
develop:
	maturin develop --release

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --lib --features python -- -D warnings
	ruff check .
	ruff format --check .
	mypy --strict
	$(PYTHON) -m mypy.stubtest splendor._core

test:
	$(PYTHON) -m pytest
	cargo test --release

bench:
	$(PYTHON) -m pytest benches --benchmark-enable --benchmark-columns=min,median,mean,ops,rounds
	cargo bench
