//! The render stage (in progress).
