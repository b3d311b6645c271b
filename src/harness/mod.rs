//! The harness: vector files, the runner that runs every engine over them,
//! and the comparison rules and divergence classes they share.

pub mod classes;
pub mod compare;
pub mod runner;
pub mod vectors;
