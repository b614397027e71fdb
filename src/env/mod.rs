//! Reinforcement-learning environments over any [`Game`](crate::Game): a
//! batched, array-in/array-out environment, and (re-exported from
//! [`crate::observation`], which the network reads too) the observation spec
//! that names every feature of a variant's observation.

pub mod assist;
pub mod claims;
pub mod driver;
pub mod vector;
pub mod workers;

/// The observation spec, [`crate::observation`], by its former path.
pub use crate::observation as spec;
pub use crate::observation::{Feature, LegalBits, ObservationSpec, Observed, MASK_WORDS};
pub use assist::Assist;
pub use driver::{Driver, Waited};
pub use vector::{mask_words, Buffers, EnvConfig, VectorEnv};
