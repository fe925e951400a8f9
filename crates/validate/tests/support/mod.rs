//! Shared test support: a fixture registry and selection generators. The render crate's
//! tests include this file too (`#[path]`), so both stages test against one registry.

#![allow(dead_code)]

pub mod fixture;
pub mod strategy;
