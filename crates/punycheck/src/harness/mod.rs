//! The harness: vector files, the runner that runs every engine over them,
//! and the comparison rules and divergence classes they share.

pub mod baseline;
pub mod calibration;
pub mod campaign;
pub mod causes;
pub mod check;
pub mod class_plan;
pub mod compare;
pub mod cost;
pub mod difference;
pub mod domains;
pub mod errors;
pub mod export;
pub mod generate;
pub mod labels;
pub mod limit_hint;
pub mod matrix;
pub mod minimize;
pub mod parallel;
pub mod properties;
pub mod regressions;
pub mod report;
pub mod runner;
pub mod small;
pub mod sweep;
pub mod swept;
pub mod unicode_classes;
pub mod vectors;
pub mod witness;

/// The divergence classes, which live in [`crate::vocabulary`] since the
/// engines declare them too.
pub use crate::vocabulary::classes;
