//! The harness: vector files and the runner that runs every engine over them.

pub mod runner;
pub mod vectors;
