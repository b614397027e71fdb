//! The network file format of `docs/network.md`: what loads, what is refused
//! and why, and the forward pass against a plain f64 reference.

use splendor::env::spec::Observed;
use splendor::game::{ActionList, Config, Game, GameError};
use splendor::nn::{encode, header_for, random_tensors, Header, Network};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use splendor::SplitMix64;

type Tensors = Vec<(String, Vec<usize>, Vec<f32>)>;

fn base_header() -> Header {
    header_for::<BaseState>(2, &[16, 8])
}

/// Random weights with a non-trivial input normalisation.
fn tensors(header: &Header, seed: u64) -> Tensors {
    let mut t = random_tensors(header, seed);
    let mut rng = SplitMix64::new(seed ^ 99);
    for (name, _, values) in &mut t {
        if name == "input.shift" {
            values.iter_mut().for_each(|v| *v = rng.next_f64() as f32);
        } else if name == "input.scale" {
            values
                .iter_mut()
                .for_each(|v| *v = 0.5 + rng.next_f64() as f32);
        }
    }
    t
}

fn network_error(bytes: &[u8]) -> String {
    match Network::from_bytes(bytes) {
        Err(GameError::Network(m)) => m,
        other => panic!("expected a network error, got {other:?}"),
    }
}

fn get<'a>(t: &'a Tensors, name: &str) -> &'a [f32] {
    &t.iter().find(|(n, _, _)| n == name).expect(name).2
}

/// The forward pass of the spec, in f64 with no tricks.
fn reference(header: &Header, t: &Tensors, obs: &[f32]) -> (Vec<f64>, Vec<f64>) {
    let shift = get(t, "input.shift");
    let scale = get(t, "input.scale");
    let mut x: Vec<f64> = (0..obs.len())
        .map(|k| (f64::from(obs[k]) - f64::from(shift[k])) * f64::from(scale[k]))
        .collect();
    let dense = |w: &[f32], b: &[f32], x: &[f64]| -> Vec<f64> {
        (0..b.len())
            .map(|o| {
                f64::from(b[o])
                    + (0..x.len())
                        .map(|k| f64::from(w[o * x.len() + k]) * x[k])
                        .sum::<f64>()
            })
            .collect()
    };
    for i in 0..header.hidden.len() {
        x = dense(
            get(t, &format!("trunk.{i}.weight")),
            get(t, &format!("trunk.{i}.bias")),
            &x,
        )
        .into_iter()
        .map(|v| v.max(0.0))
        .collect();
    }
    let logits = dense(get(t, "policy.weight"), get(t, "policy.bias"), &x);
    let v = dense(get(t, "value.weight"), get(t, "value.bias"), &x);
    let top = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = v.iter().map(|x| (x - top).exp()).collect();
    let s: f64 = e.iter().sum();
    (logits, e.iter().map(|x| x / s).collect())
}

/// Observations of positions along a few seeded random games.
fn positions() -> Vec<BaseState> {
    let mut out = Vec::new();
    for seed in 0..4 {
        let mut s = BaseState::new_game(&Config {
            seed,
            ..Config::default()
        })
        .expect("a deal");
        let mut rng = SplitMix64::new(seed);
        let mut legal = ActionList::new();
        while !s.is_terminal() && out.len() < 40 * (seed as usize + 1) {
            out.push(s);
            s.legal_actions(&mut legal);
            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            s.apply(a).expect("legal");
        }
    }
    out
}

#[test]
fn forward_pass_matches_the_reference() {
    let header = base_header();
    let t = tensors(&header, 5);
    let net = Network::from_bytes(&encode(&header, &t)).expect("a valid file");
    assert_eq!(net.variant(), "base");
    assert_eq!(net.players(), 2);
    assert_eq!(net.hidden(), &[16, 8]);
    net.check_game::<BaseState>(2).expect("fits base 2p");
    let mut scratch = net.scratch();
    let mut logits = vec![0.0; BaseState::NUM_ACTIONS];
    let mut value = vec![0.0; 2];
    let mut obs = vec![0.0; BaseState::OBSERVATION_SIZE];
    let mut legal = ActionList::new();
    for s in positions() {
        let mover = s.current_player().expect("not terminal");
        s.observation(mover, &mut obs);
        net.evaluate(&obs, &mut scratch, &mut logits, &mut value);
        let (want_logits, want_value) = reference(&header, &t, &obs);
        for (a, b) in logits.iter().zip(&want_logits) {
            assert!((f64::from(*a) - b).abs() < 1e-5, "logit {a} vs {b}");
        }
        for (a, b) in value.iter().zip(&want_value) {
            assert!((f64::from(*a) - b).abs() < 1e-5, "value {a} vs {b}");
        }
        // The prior over the legal actions is the softmax of their logits.
        s.legal_actions(&mut legal);
        let mut prior = vec![0.0; legal.len()];
        net.evaluate_legal(&obs, &mut scratch, legal.as_slice(), &mut prior, &mut value);
        let top = legal
            .as_slice()
            .iter()
            .map(|a| want_logits[a.index()])
            .fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = legal
            .as_slice()
            .iter()
            .map(|a| (want_logits[a.index()] - top).exp())
            .sum();
        for (p, a) in prior.iter().zip(legal.as_slice()) {
            let want = (want_logits[a.index()] - top).exp() / z;
            assert!((f64::from(*p) - want).abs() < 1e-5, "prior {p} vs {want}");
        }
    }
}

#[test]
fn truncated_and_garbage_files_are_refused() {
    let header = base_header();
    let bytes = encode(&header, &tensors(&header, 1));
    for cut in [0, 4, 8, 20, bytes.len() / 2, bytes.len() - 1] {
        let m = network_error(&bytes[..cut]);
        assert!(m.contains("not a valid safetensors"), "{m}");
    }
    let m = network_error(b"this is not a network at all");
    assert!(m.contains("not a valid safetensors"), "{m}");
}

#[test]
fn wrong_metadata_is_named() {
    let header = base_header();
    let t = tensors(&header, 1);
    let ok = encode(&header, &t);
    // Edit one metadata value in the header JSON; the byte length changes,
    // so rebuild the file around the new header.
    let edit = |from: &str, to: &str| -> Vec<u8> {
        let n = u64::from_le_bytes(ok[..8].try_into().expect("8 bytes")) as usize;
        let text = std::str::from_utf8(&ok[8..8 + n]).expect("utf-8 header");
        assert!(text.contains(from), "{from} in {text}");
        let mut new = text.replacen(from, to, 1).into_bytes();
        while new.len() % 8 != 0 {
            new.push(b' ');
        }
        let mut out = (new.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(&new);
        out.extend_from_slice(&ok[8 + n..]);
        out
    };
    for (from, to, needle) in [
        ("splendor-net/1", "splendor-net/9", "format"),
        ("\"players\":\"2\"", "\"players\":\"7\"", "players"),
        ("\"players\":\"2\"", "\"players\":\"two\"", "players"),
        ("\"hidden\":\"16,8\"", "\"hidden\":\"16,x\"", "hidden"),
        (
            "\"hidden\":\"16,8\"",
            "\"hidden\":\"16,9\"",
            "trunk.1.weight",
        ),
        (
            "\"obs_size\":\"432\"",
            "\"obs_size\":\"431\"",
            "input.shift",
        ),
        (
            "\"num_actions\":\"329\"",
            "\"num_actions\":\"330\"",
            "policy",
        ),
        ("\"format\"", "\"formal\"", "`format` is missing"),
    ] {
        let m = network_error(&edit(from, to));
        assert!(m.contains(needle), "{from} -> {to}: {m}");
    }
}

#[test]
fn wrong_tensors_are_named() {
    let header = base_header();
    let t = tensors(&header, 1);
    let mut missing = t.clone();
    missing.retain(|(n, _, _)| n != "value.bias");
    assert!(network_error(&encode(&header, &missing)).contains("`value.bias` is missing"));
    let mut extra = t.clone();
    extra.push(("spare".into(), vec![1], vec![0.0]));
    assert!(network_error(&encode(&header, &extra)).contains("unexpected tensor `spare`"));
    let mut shaped = t.clone();
    for (n, s, _) in &mut shaped {
        if n == "trunk.0.weight" {
            *s = vec![432, 16];
        }
    }
    let m = network_error(&encode(&header, &shaped));
    assert!(m.contains("trunk.0.weight") && m.contains("shape"), "{m}");
    let mut nan = t.clone();
    nan[4].2[3] = f32::NAN;
    let m = network_error(&encode(&header, &nan));
    assert!(m.contains("non-finite") && m.contains(&nan[4].0), "{m}");
    let mut inf = t.clone();
    inf[0].2[0] = f32::INFINITY;
    assert!(network_error(&encode(&header, &inf)).contains("non-finite"));
}

#[test]
fn wrong_dtype_is_named() {
    use safetensors::tensor::{serialize, Dtype, TensorView};
    let header = base_header();
    let t = tensors(&header, 1);
    let (_, meta) = safetensors::SafeTensors::read_metadata(&encode(&header, &t)).expect("ok");
    let data: Vec<(String, Vec<usize>, Vec<u8>)> = t
        .iter()
        .map(|(n, s, v)| {
            if n == "value.bias" {
                let d = v.iter().flat_map(|x| f64::from(*x).to_le_bytes()).collect();
                (n.clone(), s.clone(), d)
            } else {
                (
                    n.clone(),
                    s.clone(),
                    v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                )
            }
        })
        .collect();
    let views = data.iter().map(|(n, s, d)| {
        let dtype = if n == "value.bias" {
            Dtype::F64
        } else {
            Dtype::F32
        };
        (
            n.clone(),
            TensorView::new(dtype, s.clone(), d).expect("view"),
        )
    });
    let bytes = serialize(views, meta.metadata().clone()).expect("serialize");
    let m = network_error(&bytes);
    assert!(m.contains("value.bias") && m.contains("F64"), "{m}");
}

#[test]
fn a_network_only_fits_its_own_game() {
    let header = base_header();
    let net = Network::from_bytes(&encode(&header, &tensors(&header, 1))).expect("valid");
    let m = match net.check_game::<BaseState>(3) {
        Err(GameError::Network(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(m.contains("base with 2 players, not base with 3"), "{m}");
    assert!(matches!(
        net.check_game::<DuelState>(2),
        Err(GameError::Network(_))
    ));
    // A header that names base but has Duel's sizes is refused for base.
    let mut odd = header_for::<DuelState>(2, &[8]);
    odd.variant = "base".into();
    let odd = Network::from_bytes(&encode(&odd, &random_tensors(&odd, 2))).expect("valid file");
    let m = match odd.check_game::<BaseState>(2) {
        Err(GameError::Network(m)) => m,
        other => panic!("{other:?}"),
    };
    assert!(m.contains("observations of"), "{m}");
}

#[test]
fn equal_files_are_equal_networks() {
    let header = base_header();
    let a = Network::from_bytes(&encode(&header, &tensors(&header, 1))).expect("valid");
    let b = Network::from_bytes(&encode(&header, &tensors(&header, 1))).expect("valid");
    let c = Network::from_bytes(&encode(&header, &tensors(&header, 2))).expect("valid");
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(a.sha256_hex().len(), 64);
}

// --- the `features` key ---

fn needs_header(players: usize) -> Header {
    Header {
        features: Some("needs".into()),
        ..header_for::<BaseState>(players, &[16, 8])
    }
}

#[test]
fn a_needs_network_reads_the_observation_then_118_extras() {
    let header = needs_header(2);
    let t = tensors(&header, 6);
    assert_eq!(
        get(&t, "input.shift").len(),
        BaseState::OBSERVATION_SIZE + 118
    );
    let net = Network::from_bytes(&encode(&header, &t)).expect("a valid needs file");
    assert_eq!(net.features(), "needs");
    assert_eq!(net.obs_size(), BaseState::OBSERVATION_SIZE);
    assert_eq!(net.input_size(), BaseState::OBSERVATION_SIZE + 118);
    let nonzero_extras = outputs_match_the_reference(&net, &header, &t, &positions());
    assert!(nonzero_extras > 1000, "the extras carry information");
}

/// The mover's `affordable` extras say exactly which buys the rules allow.
#[test]
fn the_movers_affordable_cards_are_its_legal_buys() {
    use splendor::variants::base::actions::{BUY, BUY_RESERVED};
    for players in 2..=4 {
        let net = Network::from_bytes(&encode(
            &needs_header(players),
            &random_tensors(&needs_header(players), 1),
        ))
        .expect("valid");
        let k = 12 + 3 * players;
        assert_eq!(net.input_size() - net.obs_size(), players * (3 * k + 5));
        let mut obs = vec![0.0; BaseState::OBSERVATION_SIZE];
        let mut input = vec![0.0; net.input_size()];
        let mut legal = ActionList::new();
        let (mut affordable, mut not) = (0, 0);
        for seed in 0..6u64 {
            let mut s = BaseState::new_game(&Config {
                seed,
                num_players: players as u8,
                ..Config::default()
            })
            .expect("a deal");
            let mut rng = SplitMix64::new(seed);
            while !s.is_terminal() {
                let mover = s.current_player().expect("not terminal");
                s.observation(mover, &mut obs);
                s.legal_actions(&mut legal);
                let ids: Vec<usize> = legal.as_slice().iter().map(|a| a.index()).collect();
                let main = ids.iter().any(|&a| a < usize::from(BUY_RESERVED) + 3);
                if main {
                    net.input(&obs, &mut input);
                    // Seat 0's block: need_sum[K], missing[K], affordable[K], ...
                    let flags = &input[obs.len() + 2 * k..obs.len() + 3 * k];
                    for (slot, &flag) in flags.iter().take(15).enumerate() {
                        let id = if slot < 12 {
                            usize::from(BUY) + slot
                        } else {
                            usize::from(BUY_RESERVED) + slot - 12
                        };
                        assert_eq!(flag == 1.0, ids.contains(&id), "slot {slot} seed {seed}");
                        if flag == 1.0 {
                            affordable += 1;
                        } else {
                            not += 1;
                        }
                    }
                }
                let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
                s.apply(a).expect("legal");
            }
        }
        assert!(affordable > 50 && not > 50, "{affordable} / {not}");
    }
}

#[test]
fn the_features_key_is_checked() {
    // `needs` is defined for the three variants only: another variant name
    // is refused by the key, naming the allowed value.
    let chess = Header {
        variant: "chess".into(),
        features: Some("needs".into()),
        ..header_for::<DuelState>(2, &[8])
    };
    let m = network_error(&encode(&chess, &random_tensors(&chess, 1)));
    assert!(
        m.contains("`features`") && m.contains("base, duel, marvel") && m.contains("raw"),
        "{m}"
    );
    // Duel seats two: a 3-player Duel needs file does not fit.
    let duel3 = Header {
        features: Some("needs".into()),
        ..header_for::<DuelState>(3, &[8])
    };
    let m = network_error(&encode(&duel3, &random_tensors(&duel3, 1)));
    assert!(
        m.contains("`features`") && m.contains("duel with 3 players"),
        "{m}"
    );
    // A Duel needs file with Marvel's observation size is refused by it.
    let odd_size = Header {
        obs_size: MarvelState::OBSERVATION_SIZE,
        ..needs_header_for::<DuelState>(2)
    };
    let m = network_error(&encode(&odd_size, &random_tensors(&odd_size, 1)));
    assert!(
        m.contains("`features`") && m.contains("obs_size") && m.contains("duel"),
        "{m}"
    );
    // Any other value names the key and the allowed values.
    let odd = Header {
        features: Some("fancy".into()),
        ..base_header()
    };
    let m = network_error(&encode(&odd, &random_tensors(&odd, 1)));
    assert!(
        m.contains("`features`") && m.contains("raw, needs") && m.contains("fancy"),
        "{m}"
    );
    // `raw` written out reads as the key left out: same outputs, other bytes.
    let bare = base_header();
    let raw = Header {
        features: Some("raw".into()),
        ..base_header()
    };
    let t = tensors(&bare, 3);
    let a = Network::from_bytes(&encode(&bare, &t)).expect("valid");
    let b = Network::from_bytes(&encode(&raw, &t)).expect("valid");
    assert_ne!(a, b);
    assert_eq!((a.features(), b.features()), ("raw", "raw"));
    let mut obs = vec![0.0; BaseState::OBSERVATION_SIZE];
    let (mut la, mut lb) = (vec![0.0; 329], vec![0.0; 329]);
    let (mut va, mut vb) = (vec![0.0; 2], vec![0.0; 2]);
    let (mut sa, mut sb) = (a.scratch(), b.scratch());
    for s in positions().iter().take(20) {
        s.observation(s.current_player().expect("live"), &mut obs);
        a.evaluate(&obs, &mut sa, &mut la, &mut va);
        b.evaluate(&obs, &mut sb, &mut lb, &mut vb);
        assert_eq!((&la, &va), (&lb, &vb));
    }
    // A reader that ignores the key (as an older one does) refuses a needs
    // file by the shape of its input: it cannot mis-evaluate it.
    let needs = needs_header(2);
    let ignored = Header {
        features: None,
        ..needs.clone()
    };
    let m = network_error(&encode(&ignored, &random_tensors(&needs, 1)));
    assert!(m.contains("input.shift") && m.contains("shape"), "{m}");
    // And a needs file with raw-width tensors is refused the same way.
    let m = network_error(&encode(&needs, &random_tensors(&bare, 1)));
    assert!(m.contains("input.shift") && m.contains("[550]"), "{m}");
    // `needs` for a player count base does not seat, or other sizes, is refused.
    let one = Header {
        players: 1,
        ..needs.clone()
    };
    let m = network_error(&encode(&one, &random_tensors(&one, 1)));
    assert!(m.contains("`features`") && m.contains("1 players"), "{m}");
    let small = Header {
        obs_size: 431,
        ..needs
    };
    let m = network_error(&encode(&small, &random_tensors(&small, 1)));
    assert!(m.contains("`features`") && m.contains("obs_size"), "{m}");
}

// --- `needs` for Duel and Marvel ---

fn needs_header_for<G: Game>(players: usize) -> Header {
    Header {
        features: Some("needs".into()),
        ..header_for::<G>(players, &[16, 8])
    }
}

/// States along a few seeded random games of `G` with `players` seats.
fn random_positions<G: Game>(players: usize, seeds: u64, per_game: usize) -> Vec<G> {
    let mut out = Vec::new();
    for seed in 0..seeds {
        let mut s = G::new_game(&Config {
            seed,
            num_players: players as u8,
            ..Config::default()
        })
        .expect("a deal");
        let mut rng = SplitMix64::new(seed + 100);
        let mut legal = ActionList::new();
        let mut taken = 0;
        while !s.is_terminal() && taken < per_game {
            out.push(s.clone());
            taken += 1;
            s.legal_actions(&mut legal);
            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            s.apply(a).expect("legal");
        }
    }
    out
}

/// On each of `states`, the network's input starts with the mover's
/// observation and its outputs are the f64 reference's of that input (within
/// 1e-5); returns how many extras were non-zero over all of them.
fn outputs_match_the_reference<G: Game>(
    net: &Network,
    header: &Header,
    t: &Tensors,
    states: &[G],
) -> usize {
    let mut scratch = net.scratch();
    let mut logits = vec![0.0; G::NUM_ACTIONS];
    let mut value = vec![0.0; header.players];
    let mut obs = vec![0.0; G::OBSERVATION_SIZE];
    let mut input = vec![0.0; net.input_size()];
    let mut nonzero_extras = 0;
    for s in states {
        s.observation(s.current_player().expect("not terminal"), &mut obs);
        net.input(&obs, &mut input);
        assert_eq!(&input[..obs.len()], &obs[..]);
        nonzero_extras += input[obs.len()..].iter().filter(|v| **v != 0.0).count();
        net.evaluate(&obs, &mut scratch, &mut logits, &mut value);
        let (want_logits, want_value) = reference(header, t, &input);
        for (a, b) in logits.iter().zip(&want_logits) {
            assert!((f64::from(*a) - b).abs() < 1e-5, "logit {a} vs {b}");
        }
        for (a, b) in value.iter().zip(&want_value) {
            assert!((f64::from(*a) - b).abs() < 1e-5, "value {a} vs {b}");
        }
    }
    nonzero_extras
}

/// A `needs` network of `G` evaluates the f64 reference of its input (the
/// observation, then `extras` floats).
fn needs_forward_matches_the_reference<G: Game>(players: usize, extras: usize) {
    let header = needs_header_for::<G>(players);
    let t = tensors(&header, 8);
    assert_eq!(get(&t, "input.shift").len(), G::OBSERVATION_SIZE + extras);
    let net = Network::from_bytes(&encode(&header, &t)).expect("a valid needs file");
    assert_eq!(net.features(), "needs");
    assert_eq!(net.input_size(), G::OBSERVATION_SIZE + extras);
    let states = random_positions::<G>(players, 3, 40);
    let nonzero_extras = outputs_match_the_reference(&net, &header, &t, &states);
    assert!(
        nonzero_extras > 20 * states.len(),
        "the extras carry information: {nonzero_extras}"
    );
}

#[test]
fn duel_and_marvel_needs_networks_match_the_reference() {
    needs_forward_matches_the_reference::<DuelState>(2, 116);
    needs_forward_matches_the_reference::<MarvelState>(2, 122);
    needs_forward_matches_the_reference::<MarvelState>(3, 210);
    needs_forward_matches_the_reference::<MarvelState>(4, 316);
}

/// Over whole random games of `G`: in every main-phase decision, the
/// mover's `affordable` extras for the `12 + 3` slots it may buy from (the
/// 12 face-up cards, its own 3 reserves) are exactly its legal buy actions
/// `buy + slot` and `buy_reserved + r`; and every seat's block in the mover's
/// observation equals that seat's own block in its own observation, for the
/// face-up cards and the goals (the seats are relative). Returns (cards the
/// mover could buy, cards it could not, Duel jokers it could pay for but
/// not buy for want of a coloured card).
fn affordable_cards_are_the_legal_buys<G: Game + Observed>(
    players: usize,
    games: u64,
    buy: usize,
    buy_reserved: usize,
    goals: usize,
) -> (usize, usize, usize) {
    let net = Network::from_bytes(&encode(
        &needs_header_for::<G>(players),
        &random_tensors(&needs_header_for::<G>(players), 1),
    ))
    .expect("valid");
    let k = 12 + 3 * players;
    let per_seat = 3 * k + goals;
    assert_eq!(net.input_size() - net.obs_size(), players * per_seat);
    let spec = G::observation_spec(players).expect("a spec");
    let at = |name: &str| {
        spec.features
            .iter()
            .find(|f| f.name == name)
            .expect(name)
            .offset
    };
    let main = at("phase.main");
    // Duel's jokers: the `bonus.wild` flag of the 12 face-up cards.
    let wild: Vec<usize> = if G::VARIANT == "duel" {
        (0..12)
            .map(|s| at(&format!("pyramid.{s}.bonus.wild")))
            .collect()
    } else {
        Vec::new()
    };
    let o = G::OBSERVATION_SIZE;
    let mut obs = vec![0.0; o];
    let mut input = vec![0.0; net.input_size()];
    let mut theirs = vec![0.0; net.input_size()];
    let mut legal = ActionList::new();
    let (mut affordable, mut not, mut barred) = (0, 0, 0);
    for seed in 0..games {
        let mut s = G::new_game(&Config {
            seed,
            num_players: players as u8,
            ..Config::default()
        })
        .expect("a deal");
        let mut rng = SplitMix64::new(seed);
        while !s.is_terminal() {
            let mover = usize::from(s.current_player().expect("not terminal"));
            s.observation(mover as u8, &mut obs);
            s.legal_actions(&mut legal);
            if obs[main] == 1.0 {
                net.input(&obs, &mut input);
                let ids: Vec<usize> = legal.as_slice().iter().map(|a| a.index()).collect();
                // Seat 0's block: need_sum[K], missing[K], affordable[K], ...
                let missing = &input[o + k..o + 2 * k];
                let flags = &input[o + 2 * k..o + 3 * k];
                for (slot, &flag) in flags.iter().take(15).enumerate() {
                    let id = if slot < 12 {
                        buy + slot
                    } else {
                        buy_reserved + slot - 12
                    };
                    assert_eq!(
                        flag == 1.0,
                        ids.contains(&id),
                        "{} slot {slot} seed {seed}",
                        G::VARIANT
                    );
                    if flag == 1.0 {
                        affordable += 1;
                    } else {
                        not += 1;
                        if wild.get(slot).is_some_and(|&w| obs[w] == 1.0) && missing[slot] == 0.0 {
                            barred += 1;
                        }
                    }
                }
                for seat in 1..players {
                    let other = ((mover + seat) % players) as u8;
                    s.observation(other, &mut obs);
                    net.input(&obs, &mut theirs);
                    let mine = &input[o + seat * per_seat..o + (seat + 1) * per_seat];
                    let own = &theirs[o..o + per_seat];
                    for block in 0..3 {
                        let cards = block * k..block * k + 12;
                        assert_eq!(&mine[cards.clone()], &own[cards], "seat {seat} seed {seed}");
                    }
                    assert_eq!(
                        &mine[3 * k..],
                        &own[3 * k..],
                        "goals, seat {seat} seed {seed}"
                    );
                }
            }
            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            s.apply(a).expect("legal");
        }
    }
    (affordable, not, barred)
}

#[test]
fn duel_affordable_cards_are_the_legal_buys() {
    use splendor::variants::duel::actions::{BUY, BUY_RESERVED};
    let (yes, no, barred) = affordable_cards_are_the_legal_buys::<DuelState>(
        2,
        12,
        usize::from(BUY),
        usize::from(BUY_RESERVED),
        4,
    );
    assert!(yes > 50 && no > 50, "{yes} / {no}");
    // The joker rule is exercised: jokers paid for but not buyable.
    assert!(barred > 0, "no joker was barred");
}

#[test]
fn marvel_affordable_cards_are_the_legal_buys() {
    use splendor::variants::marvel::actions::{RECRUIT, RECRUIT_RES};
    for players in 2..=4 {
        let (yes, no, _) = affordable_cards_are_the_legal_buys::<MarvelState>(
            players,
            4,
            usize::from(RECRUIT),
            usize::from(RECRUIT_RES),
            4 + 3,
        );
        assert!(yes > 50 && no > 50, "{players} players: {yes} / {no}");
    }
}

/// `t` with every value of tensor `name` set to `v`.
fn with_all(t: &Tensors, name: &str, v: f32) -> Tensors {
    let mut t = t.clone();
    for (n, _, values) in &mut t {
        if n == name {
            values.iter_mut().for_each(|x| *x = v);
        }
    }
    t
}

#[test]
fn weights_that_can_overflow_a_forward_pass_are_refused() {
    let header = base_header();
    let t = tensors(&header, 1);
    // Finite, but a single product leaves float32 (the 3e38).
    for name in [
        "input.scale",
        "trunk.0.weight",
        "trunk.1.bias",
        "policy.weight",
        "value.weight",
    ] {
        let m = network_error(&encode(&header, &with_all(&t, name, 3e38)));
        assert!(m.contains("the weights are too large"), "{name}: {m}");
    }
    // Each weight modest, the sums overflowing two layers on.
    let m = network_error(&encode(&header, &with_all(&t, "trunk.1.weight", 1e24)));
    assert!(m.contains("`trunk.1` can reach"), "{m}");
    let m = network_error(&encode(&header, &with_all(&t, "input.shift", -3e38)));
    assert!(m.contains("the weights are too large"), "{m}");
    // Large but safe weights load, and evaluate to finite outputs even at
    // the largest input the bound covers.
    let net = Network::from_bytes(&encode(&header, &with_all(&t, "trunk.0.weight", 1e4))).unwrap();
    let mut scratch = net.scratch();
    let mut logits = vec![0.0; net.num_actions()];
    let mut value = vec![0.0; net.players()];
    let obs = vec![splendor::nn::MAX_INPUT; net.obs_size()];
    net.evaluate(&obs, &mut scratch, &mut logits, &mut value);
    assert!(logits.iter().chain(&value).all(|x| x.is_finite()));
    assert!((value.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{value:?}");
}

#[test]
fn softmax_is_finite_whatever_it_is_given() {
    use splendor::nn::softmax;
    let cases: [(&[f32], &[f32]); 6] = [
        (&[0.0, 0.0], &[0.5, 0.5]),
        (&[f32::NAN, 0.0], &[0.0, 1.0]),
        (&[f32::NAN, f32::NAN], &[0.5, 0.5]),
        (
            &[f32::INFINITY, 1.0, f32::INFINITY, f32::NAN],
            &[0.5, 0.0, 0.5, 0.0],
        ),
        (&[f32::NEG_INFINITY, f32::NEG_INFINITY], &[0.5, 0.5]),
        (&[f32::MAX, -f32::MAX], &[1.0, 0.0]),
    ];
    for (input, want) in cases {
        let mut xs = input.to_vec();
        softmax(&mut xs);
        assert_eq!(xs, want, "softmax({input:?})");
    }
    let mut empty: [f32; 0] = [];
    softmax(&mut empty);
}

/// A fresh empty folder under the system's temporary folder.
fn temp_folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("splendor-nn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn load_error(path: &std::path::Path) -> String {
    match Network::load(path) {
        Err(GameError::Network(m)) => m,
        other => panic!(
            "expected a network error for {}, got {other:?}",
            path.display()
        ),
    }
}

#[test]
fn only_regular_files_within_the_size_limit_are_read() {
    let dir = temp_folder("paths");
    let header = base_header();
    let good = dir.join("good.safetensors");
    std::fs::write(&good, encode(&header, &tensors(&header, 1))).unwrap();
    assert!(Network::load(&good).is_ok());
    assert!(load_error(&dir).contains("it is a folder"));
    assert!(load_error(&dir.join("absent")).contains("cannot read network file"));
    // A sparse file one byte over the limit: refused before it is read.
    let big = dir.join("big.safetensors");
    let f = std::fs::File::create(&big).unwrap();
    f.set_len(splendor::nn::MAX_FILE_BYTES + 1).unwrap();
    let m = load_error(&big);
    assert!(m.contains("over the limit"), "{m}");
    #[cfg(unix)]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        // /dev/zero would be read until memory runs out; a FIFO with no
        // writer would block for ever.
        let m = load_error(std::path::Path::new("/dev/zero"));
        assert!(m.contains("not a regular file"), "{m}");
        let fifo = dir.join("fifo.safetensors");
        let c = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(load_error(&fifo)).unwrap());
        let m = rx
            .recv_timeout(std::time::Duration::from_secs(20))
            .expect("loading a FIFO blocked");
        assert!(m.contains("not a regular file"), "{m}");
        // Through a symbolic link, the same.
        let link = dir.join("link.safetensors");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(load_error(&link).contains("not a regular file"));
        std::os::unix::fs::symlink(&good, dir.join("good-link")).unwrap();
        assert!(Network::load(dir.join("good-link")).is_ok());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
