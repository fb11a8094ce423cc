//! The first layer: launch files read into runs. A side's files ([`sides`]) are read as IMB or
//! OSU text ([`imbtext`]) or imb-rs `-json` ([`jsondoc`]) into one [`run::Run`] per launch, its
//! tables' figures checked ([`check`]) and the conditions its header states taken down
//! ([`header`]); [`key`] names where a figure sits (its table and column). Nothing here judges:
//! the layers above ([`crate::conditions`], [`crate::judge`], [`crate::render`]) take runs as
//! these modules leave them, and the results store ([`crate::store`]) reads its runs back
//! through them.

pub mod check;
pub mod header;
pub mod imbtext;
pub mod jsondoc;
pub mod key;
pub mod run;
pub mod sides;
