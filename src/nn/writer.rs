//! Writing a network file: the header, the tensors, and random networks for
//! tests and benches.

use super::*;
use crate::game::Game;
use crate::rng::SplitMix64;

/// What a network file declares, for [`encode`].
#[derive(Clone, Debug)]
pub struct Header {
    /// The variant name.
    pub variant: String,
    /// The player count.
    pub players: usize,
    /// Observation length.
    pub obs_size: usize,
    /// Action-space size.
    pub num_actions: usize,
    /// Hidden widths.
    pub hidden: Vec<usize>,
    /// The `features` metadata (`None`: the key is left out, which reads as
    /// `raw`).
    pub features: Option<String>,
    /// Free text.
    pub provenance: String,
}

/// Writes a network file: the metadata of `header` and `tensors` as
/// `(name, shape, values)`, F32 little-endian, in the given order (no
/// checks: tests use it to write bad files too). The header JSON has sorted
/// keys, so the same network always gives the same bytes.
pub fn encode(header: &Header, tensors: &[(String, Vec<usize>, Vec<f32>)]) -> Vec<u8> {
    use serde_json::{json, Map, Value};
    let hidden: Vec<String> = header.hidden.iter().map(usize::to_string).collect();
    let mut top = Map::new();
    let mut metadata = json!({
            "format": FORMAT,
            "variant": header.variant,
            "players": header.players.to_string(),
            "obs_size": header.obs_size.to_string(),
            "num_actions": header.num_actions.to_string(),
            "hidden": hidden.join(","),
            "provenance": header.provenance,
    });
    if let Some(features) = &header.features {
        metadata["features"] = json!(features);
    }
    top.insert("__metadata__".into(), metadata);
    let mut data = Vec::new();
    for (name, shape, values) in tensors {
        let start = data.len();
        data.extend(values.iter().flat_map(|x| x.to_le_bytes()));
        top.insert(
            name.clone(),
            json!({"dtype": "F32", "shape": shape, "data_offsets": [start, data.len()]}),
        );
    }
    let mut text = Value::Object(top).to_string().into_bytes();
    // The data starts 8-byte aligned, as safetensors writers do.
    while text.len() % 8 != 0 {
        text.push(b' ');
    }
    let mut out = (text.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(&text);
    out.extend_from_slice(&data);
    out
}

/// The tensors of a network of `header`'s shape with seeded uniform weights
/// in `±1/sqrt(fan_in)` (biases too), shift 0 and scale 1: for tests and
/// benchmarks. The input is the observation and the extras of
/// `header.features` (none for a name that is not a feature set).
pub fn random_tensors(header: &Header, seed: u64) -> Vec<(String, Vec<usize>, Vec<f32>)> {
    let mut rng = SplitMix64::new(seed);
    let mut uniform = |n: usize, fan_in: usize| -> Vec<f32> {
        let r = 1.0 / (fan_in as f64).sqrt();
        (0..n)
            .map(|_| ((rng.next_f64() * 2.0 - 1.0) * r) as f32)
            .collect()
    };
    let extras = header
        .features
        .as_deref()
        .and_then(|f| features::extra_len_of(f, &header.variant, header.players))
        .unwrap_or(0);
    let o = header.obs_size + extras;
    let mut t = vec![
        ("input.shift".to_string(), vec![o], vec![0.0; o]),
        ("input.scale".to_string(), vec![o], vec![1.0; o]),
    ];
    let mut prev = o;
    for (i, &h) in header.hidden.iter().enumerate() {
        t.push((
            format!("trunk.{i}.weight"),
            vec![h, prev],
            uniform(h * prev, prev),
        ));
        t.push((format!("trunk.{i}.bias"), vec![h], uniform(h, prev)));
        prev = h;
    }
    let a = header.num_actions;
    let p = header.players;
    t.push((
        "policy.weight".into(),
        vec![a, prev],
        uniform(a * prev, prev),
    ));
    t.push(("policy.bias".into(), vec![a], uniform(a, prev)));
    t.push((
        "value.weight".into(),
        vec![p, prev],
        uniform(p * prev, prev),
    ));
    t.push(("value.bias".into(), vec![p], uniform(p, prev)));
    t
}

/// The header of a network for `G` with `players` seats and `hidden` widths.
pub fn header_for<G: Game>(players: usize, hidden: &[usize]) -> Header {
    Header {
        variant: G::VARIANT.to_string(),
        players,
        obs_size: G::OBSERVATION_SIZE,
        num_actions: G::NUM_ACTIONS,
        hidden: hidden.to_vec(),
        features: None,
        provenance: "{\"source\": \"random weights\"}".into(),
    }
}

/// A random-weight network file for `G` (see [`random_tensors`]).
pub fn random_network_bytes<G: Game>(players: usize, hidden: &[usize], seed: u64) -> Vec<u8> {
    let header = header_for::<G>(players, hidden);
    encode(&header, &random_tensors(&header, seed))
}
