//! Reading a network file: the safetensors container, its metadata and every
//! check made before a network is accepted.

use super::features::InputFeatures;
use super::*;
use crate::game::{GameError, MAX_PLAYERS};
use safetensors::tensor::{Dtype, SafeTensors, TensorView};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::Path;

pub(super) fn bad(msg: String) -> GameError {
    GameError::Network(msg)
}

pub(super) fn metadata_value<'a>(
    meta: &'a HashMap<String, String>,
    key: &str,
) -> Result<&'a str, GameError> {
    meta.get(key)
        .map(String::as_str)
        .ok_or_else(|| bad(format!("network file: metadata key `{key}` is missing")))
}

pub(super) fn parse_count(meta: &HashMap<String, String>, key: &str) -> Result<usize, GameError> {
    let text = metadata_value(meta, key)?;
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 && n <= MAX_WIDTH => Ok(n),
        _ => Err(bad(format!(
            "network file: metadata `{key}` must be an integer between 1 and {MAX_WIDTH}, got {text:?}"
        ))),
    }
}

impl Network {
    /// Reads and validates a network file.
    ///
    /// Errors (`GameError::Network`): not a safetensors file (or truncated),
    /// a missing or wrong metadata key, a missing, extra, misshapen or
    /// non-`F32` tensor, or a non-finite weight. The message names the
    /// problem.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, GameError> {
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| bad(format!("not a valid safetensors network file: {e}")))?;
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| bad(format!("not a valid safetensors network file: {e}")))?;
        let empty = HashMap::new();
        let meta = header.metadata().as_ref().unwrap_or(&empty);
        let format = metadata_value(meta, "format")?;
        if format != FORMAT {
            return Err(bad(format!(
                "network file: format is {format:?}, this version reads {FORMAT:?}"
            )));
        }
        let variant = metadata_value(meta, "variant")?.to_string();
        if variant.is_empty() {
            return Err(bad("network file: metadata `variant` is empty".into()));
        }
        let players = parse_count(meta, "players")?;
        if players > MAX_PLAYERS {
            return Err(bad(format!(
                "network file: metadata `players` must be between 1 and {MAX_PLAYERS}, got {players}"
            )));
        }
        let obs_size = parse_count(meta, "obs_size")?;
        let num_actions = parse_count(meta, "num_actions")?;
        let hidden_text = metadata_value(meta, "hidden")?;
        let hidden: Vec<usize> = hidden_text
            .split(',')
            .map(|w| w.trim().parse::<usize>().ok().filter(|&n| n > 0 && n <= MAX_WIDTH))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                bad(format!(
                    "network file: metadata `hidden` must be comma-separated widths between 1 and {MAX_WIDTH}, got {hidden_text:?}"
                ))
            })?;
        let provenance = meta.get("provenance").cloned().unwrap_or_default();
        let features = InputFeatures::resolve(
            meta.get("features").map_or("raw", String::as_str),
            &variant,
            players,
            obs_size,
        )?;
        // The trunk reads the observation followed by the extras.
        let input_size = obs_size + features.extra_len();

        let mut expected: Vec<(String, Vec<usize>)> = vec![
            ("input.shift".into(), vec![input_size]),
            ("input.scale".into(), vec![input_size]),
        ];
        let mut prev = input_size;
        for (i, &h) in hidden.iter().enumerate() {
            expected.push((format!("trunk.{i}.weight"), vec![h, prev]));
            expected.push((format!("trunk.{i}.bias"), vec![h]));
            prev = h;
        }
        expected.push(("policy.weight".into(), vec![num_actions, prev]));
        expected.push(("policy.bias".into(), vec![num_actions]));
        expected.push(("value.weight".into(), vec![players, prev]));
        expected.push(("value.bias".into(), vec![players]));
        for name in tensors.names() {
            if !expected.iter().any(|(n, _)| n == name) {
                return Err(bad(format!("network file: unexpected tensor `{name}`")));
            }
        }
        let read = |name: &str, shape: &[usize]| -> Result<Vec<f32>, GameError> {
            let view: TensorView<'_> = tensors
                .tensor(name)
                .map_err(|_| bad(format!("network file: tensor `{name}` is missing")))?;
            if view.dtype() != Dtype::F32 {
                return Err(bad(format!(
                    "network file: tensor `{name}` has dtype {:?}, expected F32",
                    view.dtype()
                )));
            }
            if view.shape() != shape {
                return Err(bad(format!(
                    "network file: tensor `{name}` has shape {:?}, expected {shape:?}",
                    view.shape()
                )));
            }
            let values: Vec<f32> = view
                .data()
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            if let Some(k) = values.iter().position(|v| !v.is_finite()) {
                return Err(bad(format!(
                    "network file: tensor `{name}` has a non-finite value at flat index {k}"
                )));
            }
            Ok(values)
        };
        let shift = read("input.shift", &[input_size])?;
        let scale = read("input.scale", &[input_size])?;
        let mut trunk = Vec::with_capacity(hidden.len());
        let mut prev = input_size;
        for (i, &h) in hidden.iter().enumerate() {
            let w = read(&format!("trunk.{i}.weight"), &[h, prev])?;
            let mut bias = read(&format!("trunk.{i}.bias"), &[h])?;
            // Transposed for `gemv_cols`: row `k` holds input k's weights.
            // The input normalisation is folded into the first layer,
            // `W ((x - shift) * scale) + b = (W diag(scale)) x + (b - W (shift * scale))`,
            // so the layer reads the raw observation, whose many zeros
            // `gemv_cols` skips.
            let mut weight = vec![0.0; w.len()];
            for o in 0..h {
                let mut shifted = 0.0f64;
                for k in 0..prev {
                    let (mut wk, mut sk) = (w[o * prev + k], 0.0);
                    if i == 0 {
                        sk = shift[k] * scale[k];
                        wk *= scale[k];
                    }
                    shifted += f64::from(w[o * prev + k]) * f64::from(sk);
                    weight[k * h + o] = wk;
                }
                bias[o] = (f64::from(bias[o]) - shifted) as f32;
            }
            if let Some(k) = weight.iter().chain(&bias).position(|v| !v.is_finite()) {
                return Err(bad(format!(
                    "network file: the weights are too large: the input normalisation folded into trunk.0 overflows float32 (value {k})"
                )));
            }
            trunk.push(Dense {
                inputs: prev,
                outputs: h,
                weight,
                bias,
            });
            prev = h;
        }
        let mut policy = Dense {
            inputs: prev,
            outputs: num_actions,
            weight: read("policy.weight", &[num_actions, prev])?,
            bias: read("policy.bias", &[num_actions])?,
        };
        let mut value = Dense {
            inputs: prev,
            outputs: players,
            weight: read("value.weight", &[players, prev])?,
            bias: read("value.bias", &[players])?,
        };
        check_magnitude(input_size, &trunk, &policy, &value)?;
        for layer in trunk.iter_mut().chain([&mut policy, &mut value]) {
            flush_subnormals(&mut layer.weight);
            flush_subnormals(&mut layer.bias);
        }
        Ok(Network {
            variant,
            players,
            obs_size,
            num_actions,
            hidden,
            features,
            provenance,
            sha256: Sha256::digest(bytes).into(),
            trunk,
            policy,
            value,
        })
    }

    /// Reads a network file from disk (see [`Network::read_file`] and
    /// [`Network::from_bytes`]).
    pub fn load(path: impl AsRef<Path>) -> Result<Network, GameError> {
        Network::from_bytes(&Network::read_file(path.as_ref())?)
    }

    /// The bytes of a network file: the one way every entry point reads one.
    ///
    /// Errors (`GameError::Network`): the path is missing or unreadable, is
    /// not a regular file (a folder, a FIFO, a device such as `/dev/zero`),
    /// or holds more than [`MAX_FILE_BYTES`]. The kind and size are checked
    /// before the file is opened and again on the opened file, which is
    /// opened non-blocking (a FIFO put in its place cannot block) and read
    /// with a bound.
    pub fn read_file(path: &Path) -> Result<Vec<u8>, GameError> {
        use std::io::Read;
        let fail = |what: String| {
            bad(format!(
                "cannot read network file {}: {what}",
                path.display()
            ))
        };
        let check = |meta: &std::fs::Metadata| -> Result<(), GameError> {
            if !meta.is_file() {
                let kind = if meta.is_dir() {
                    "a folder"
                } else {
                    "not a regular file"
                };
                return Err(fail(format!("it is {kind}")));
            }
            if meta.len() > MAX_FILE_BYTES {
                return Err(fail(format!(
                    "it holds {} bytes, over the limit of {MAX_FILE_BYTES} (1 GiB)",
                    meta.len()
                )));
            }
            Ok(())
        };
        check(&std::fs::metadata(path).map_err(|e| fail(e.to_string()))?)?;
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_NONBLOCK);
        }
        let file = options.open(path).map_err(|e| fail(e.to_string()))?;
        let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
        check(&meta)?;
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| fail(e.to_string()))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(fail(format!(
                "it grew over the limit of {MAX_FILE_BYTES} bytes while read"
            )));
        }
        Ok(bytes)
    }
}

/// Sets every subnormal value (below `f32::MIN_POSITIVE` in magnitude, not
/// zero) to zero. Weight decay leaves many weights of a trained network there
/// (a quarter of the shipped base 2-player network's), and an x86 CPU takes a
/// microcode assist of a hundred-odd cycles for each multiply that reads one:
/// with them the forward pass ran about ten times slower. A subnormal weight
/// moves a product by less than 1.2e-38, which no sum of a normal size can
/// hold, so the network computes the same values.
fn flush_subnormals(values: &mut [f32]) {
    for v in values.iter_mut() {
        if v.is_subnormal() {
            *v = 0.0;
        }
    }
}
