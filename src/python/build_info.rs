//! `splendor._core.__version__` and `build_info()`: the package version (Cargo.toml's,
//! the one place it is stated) and what this binary was built with, recorded by
//! `build/info.rs`. `splendor --version` prints them.

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The package version: Cargo.toml's `version`, which pyproject.toml reads too.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// What this build of the extension was made with.
///
/// Returns:
///     A dict of strings: ``version`` (the package version), ``rustc`` (the
///     compiler's ``--version``), ``target`` (the target triple), ``profile``
///     ("release" or "debug"), ``features`` (the cargo features, comma-separated),
///     ``target_features`` (the CPU features the code is compiled for,
///     comma-separated) and ``kernels`` (the network kernels this CPU runs:
///     "avx2+fma", picked at run time where the CPU has both, else "portable").
#[pyfunction]
#[pyo3(text_signature = "()")]
fn build_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let info = PyDict::new(py);
    info.set_item("version", VERSION)?;
    info.set_item("rustc", env!("SPLENDOR_BUILD_RUSTC"))?;
    info.set_item("target", env!("SPLENDOR_BUILD_TARGET"))?;
    info.set_item("profile", env!("SPLENDOR_BUILD_PROFILE"))?;
    info.set_item("features", env!("SPLENDOR_BUILD_FEATURES"))?;
    info.set_item("target_features", env!("SPLENDOR_BUILD_TARGET_FEATURES"))?;
    info.set_item("kernels", crate::nn::kernel::active())?;
    Ok(info)
}

/// Adds `__version__` and `build_info` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", VERSION)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)
}
