//! PyO3 bindings: the only module that names pyo3.
