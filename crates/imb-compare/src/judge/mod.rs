//! The third layer: what the runs read show. Statistics ([`stats`]), the family-wise rule a
//! size fails by ([`family`]), one baseline against new runs ([`versus`]), acceptance
//! criteria ([`criteria`]), agreement between programs ([`agree`]), a figure's trend over
//! stored runs ([`trend`], its change points by [`change`]), and [`comparison`], which
//! gathers one comparison's findings into the value the renderers ([`crate::render`]) write.
//! Nothing here formats an output file.

pub mod agree;
pub mod change;
pub mod comparison;
pub mod criteria;
pub mod family;
pub mod stats;
pub mod trend;
pub mod versus;
