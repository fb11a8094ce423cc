//! `trend`: one figure per stored run over time, with change points.
