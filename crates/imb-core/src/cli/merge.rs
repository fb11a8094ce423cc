//! The one settings merge: command line (`-msglog`, `-iter`, a family's rows that set a key of
//! its settings file) over the `[optional]` block of a settings file over the standard values,
//! recording where each value came from; the header's optional-mode block is written from
//! that record.

use super::raw::Raw;
use super::*;
use crate::settings::{Origin, Origins};

/// The parameters of a run and their origins.
pub(super) fn merge(
    settings: &Settings,
    spec: &settings::Spec,
    raw: &Raw,
) -> Result<(Params, Origins)> {
    let mut params = settings.params.clone();
    let mut origins = settings.origins.clone();
    let mut cli = |key: &str| origins.set(key, Origin::CommandLine);
    if let Some((min, max)) = raw.msglog {
        params.minmsglog = min;
        params.maxmsglog = max;
        cli("MINMSGLOG");
        cli("MAXMSGLOG");
    }
    if let Some((msgs, vol, nonaggr)) = raw.iter {
        params.msgspersample = msgs;
        cli("MSGSPERSAMPLE");
        if let Some(mb) = vol {
            params.overall_vol = mb
                .checked_mul(1 << 20)
                .filter(|&v| v <= settings::MAX_OVERALL_VOL)
                .ok_or_else(|| {
                    Error::arg(
                        "-iter",
                        format!("{mb} MB is above OVERALL_VOL's 1 TiB limit"),
                    )
                })?;
            cli("OVERALL_VOL");
        }
        if let Some(n) = nonaggr {
            params.msgs_nonaggr = n;
            cli("MSGS_NONAGGR");
        }
    }
    for k in spec.keys {
        if let Some(v) = raw.family.get(k.name) {
            params.family.set(k.name, v.clone());
            cli(k.name);
        }
    }
    Ok((params, origins))
}
