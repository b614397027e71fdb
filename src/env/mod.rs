//! Reinforcement-learning environments over any [`Game`](crate::Game): a
//! batched, array-in/array-out environment and the observation spec that
//! names every feature of a variant's observation.

pub mod assist;
pub mod claims;
pub mod driver;
pub mod spec;
pub mod vector;
pub mod workers;

pub use assist::Assist;
pub use driver::{Driver, Waited};
pub use spec::{Feature, LegalBits, ObservationSpec, Observed, MASK_WORDS};
pub use vector::{mask_words, Buffers, EnvConfig, VectorEnv};
