//! `splendor.Network`: a policy/value network file loaded into the Rust
//! evaluator, usable by `search`, `MctsBot` and `match` with no Python in the
//! search loop. Keeps the file's bytes so it pickles.

use super::action::ok;
use super::args;
use super::errors;
use crate::game::GameError;
use crate::nn::{Network, MAX_INPUT};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use std::path::Path;
use std::sync::Arc;

/// The bytes of a network file ([`Network::read_file`]: a regular file of
/// at most `MAX_FILE_BYTES`), read with the GIL released.
fn read(py: Python<'_>, path: &Path) -> PyResult<Vec<u8>> {
    ok(py.detach(|| Network::read_file(path)))
}

/// A loaded network: check it fits a known variant (name and sizes).
fn checked(net: Network) -> PyResult<Network> {
    let Some(info) = super::variant_info(net.variant()) else {
        return Err(errors::NetworkError::new_err(format!(
            "the network is for variant {:?}, which this engine does not know (expected one of {})",
            net.variant(),
            super::VARIANTS.join(", ")
        )));
    };
    if net.obs_size() != info.observation_size || net.num_actions() != info.num_actions {
        return Err(errors::NetworkError::new_err(format!(
            "the network reads observations of {} and scores {} actions; {} has {} and {}",
            net.obs_size(),
            net.num_actions(),
            info.name,
            info.observation_size,
            info.num_actions
        )));
    }
    Ok(net)
}

/// A policy/value network (`docs/network.md`), evaluated in Rust.
#[pyclass(frozen, module = "splendor._core", name = "Network")]
pub(crate) struct PyNetwork {
    pub(crate) net: Arc<Network>,
    bytes: Vec<u8>,
}

impl PyNetwork {
    fn from_vec(bytes: Vec<u8>) -> PyResult<Self> {
        let net = checked(ok(Network::from_bytes(&bytes))?)?;
        Ok(Self {
            net: Arc::new(net),
            bytes,
        })
    }

    /// An observation argument: a 1-d float32 array of `obs_size` values.
    fn observation(&self, observation: &Bound<'_, PyAny>) -> PyResult<Vec<f32>> {
        let obs = args::float32_vector(observation, "observation", errors::config)?;
        if obs.len() != self.net.obs_size() {
            return Err(errors::to_py(GameError::Network(format!(
                "the observation has {} values; the network reads {}",
                obs.len(),
                self.net.obs_size()
            ))));
        }
        // The range within which a loaded network's outputs are finite.
        if let Some(k) = obs
            .iter()
            .position(|x| !x.is_finite() || x.abs() > MAX_INPUT)
        {
            return Err(errors::config(format!(
                "observation[{k}] is {}: the values must be finite, within ±{MAX_INPUT}",
                obs[k]
            )));
        }
        Ok(obs)
    }

    /// A network argument: a `Network`, or a path (`str` / `os.PathLike`)
    /// to read one from.
    pub(crate) fn argument(obj: &Bound<'_, PyAny>) -> PyResult<Arc<Network>> {
        Ok(Self::object(obj)?.get().net.clone())
    }

    /// The `Network` object of a network argument (the argument itself, or
    /// one read from the path), so that a bot can pickle its network.
    pub(crate) fn object<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyNetwork>> {
        if let Ok(n) = obj.cast::<PyNetwork>() {
            return Ok(n.clone());
        }
        let is_path =
            obj.is_instance_of::<PyString>() || obj.hasattr("__fspath__").unwrap_or(false);
        if !is_path {
            return Err(errors::config(format!(
                "network must be a splendor.Network, a path or None, not {}",
                args::type_name(obj)
            )));
        }
        let bytes = read(obj.py(), &args::path(obj, "network", errors::config)?)?;
        Bound::new(obj.py(), Self::from_vec(bytes)?)
    }
}

#[pymethods]
impl PyNetwork {
    /// Networks are not built directly: a `ConfigError` says how to get one.
    #[new]
    #[pyo3(signature = (*_args, **_kwargs))]
    fn py_new(_args: &Bound<'_, PyTuple>, _kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Err(errors::config(
            "Network has no constructor: read one with splendor.Network.load(path) or \
             splendor.Network.from_bytes(data)"
                .into(),
        ))
    }

    /// Reads a network file.
    ///
    /// Args:
    ///     path: The file (a str or os.PathLike).
    ///
    /// Raises:
    ///     ConfigError: `path` is not a path.
    ///     NetworkError: The file is missing or unreadable, is not a regular
    ///         file (a folder, a FIFO, a device), is over 1 GiB, or is not a
    ///         network file (docs/network.md).
    #[staticmethod]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(path)")]
    fn load(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let path = &args::one("Network.load", "path", args, kwargs)?;
        Self::from_vec(read(path.py(), &args::path(path, "path", errors::config)?)?)
    }

    /// Reads a network from the bytes of a file.
    ///
    /// Raises:
    ///     ConfigError: `data` is not bytes.
    ///     NetworkError: Not a network file.
    #[staticmethod]
    #[pyo3(signature = (*args, **kwargs), text_signature = "(data)")]
    fn from_bytes(args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let data = &args::one("Network.from_bytes", "data", args, kwargs)?;
        Self::from_vec(args::bytes(data, "data", errors::config)?.to_vec())
    }

    /// The bytes of the file it was read from.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self)")]
    fn to_bytes<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        args::no_arguments("Network.to_bytes", args, kwargs)?;
        Ok(PyBytes::new(py, &self.bytes))
    }

    /// The variant it was trained for (`base`, `duel` or `marvel`).
    #[getter]
    fn variant(&self) -> &str {
        self.net.variant()
    }
    /// The player count it was trained for.
    #[getter]
    fn players(&self) -> usize {
        self.net.players()
    }
    /// The hidden layer widths.
    #[getter]
    fn hidden(&self) -> Vec<usize> {
        self.net.hidden().to_vec()
    }
    /// The observation length it reads.
    #[getter]
    fn obs_size(&self) -> usize {
        self.net.obs_size()
    }
    /// The number of action ids of its policy head.
    #[getter]
    fn num_actions(&self) -> usize {
        self.net.num_actions()
    }
    /// The input feature set: `raw` (the observation) or `needs` (the
    /// observation, then each seat's needs; every variant).
    #[getter]
    fn features(&self) -> &str {
        self.net.features()
    }
    /// Free text (JSON) on how it was trained.
    #[getter]
    fn provenance(&self) -> &str {
        self.net.provenance()
    }
    /// SHA-256 (hex) of the file: the network's identity.
    #[getter]
    fn sha256(&self) -> String {
        self.net.sha256_hex()
    }

    /// `(policy_logits, value)` for an observation (float32 arrays of
    /// `num_actions` and `players`; the value is a softmax, column 0 = the
    /// player whose observation it is).
    ///
    /// Raises:
    ///     ConfigError: `observation` is not a 1-d float32 NumPy array, or
    ///         holds a value that is not finite or is beyond ±65536.
    ///     NetworkError: Its length is not `obs_size`.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, observation)")]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<f32>>)> {
        let observation = args::one("Network.evaluate", "observation", args, kwargs)?;
        let obs = self.observation(&observation)?;
        let net = self.net.clone();
        let (logits, value) = py.detach(move || {
            let mut scratch = net.scratch();
            let mut logits = vec![0.0; net.num_actions()];
            let mut value = vec![0.0; net.players()];
            net.evaluate(&obs, &mut scratch, &mut logits, &mut value);
            (logits, value)
        });
        Ok((
            PyArray1::from_vec(py, logits),
            PyArray1::from_vec(py, value),
        ))
    }

    /// The trunk's input for an observation, before the input normalisation:
    /// the observation, then the extras of `features` (float32, `obs_size`
    /// values for `raw`, `obs_size + E` for `needs`).
    ///
    /// Raises:
    ///     ConfigError: `observation` is not a 1-d float32 NumPy array.
    ///     NetworkError: Its length is not `obs_size`.
    #[pyo3(signature = (*args, **kwargs), text_signature = "($self, observation)")]
    fn input_features<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let observation = args::one("Network.input_features", "observation", args, kwargs)?;
        let obs = self.observation(&observation)?;
        let mut input = vec![0.0; self.net.input_size()];
        self.net.input(&obs, &mut input);
        Ok(PyArray1::from_vec(py, input))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyNetwork>()
            .is_ok_and(|o| o.get().net.sha256() == self.net.sha256())
    }

    fn __hash__(&self) -> u64 {
        let h = self.net.sha256();
        u64::from_le_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]])
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let ctor = slf.get_type().getattr("from_bytes")?;
        let args = PyTuple::new(py, [PyBytes::new(py, &slf.get().bytes)])?;
        PyTuple::new(py, [ctor.into_any(), args.into_any()])
    }

    fn __repr__(&self) -> String {
        let hidden: Vec<String> = self.net.hidden().iter().map(usize::to_string).collect();
        format!(
            "Network(variant={:?}, players={}, hidden=[{}], features={:?}, sha256={:?})",
            self.net.variant(),
            self.net.players(),
            hidden.join(", "),
            self.net.features(),
            &self.net.sha256_hex()[..12]
        )
    }
}
