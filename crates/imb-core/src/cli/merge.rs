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
    let mut p = settings.params.clone();
    let mut origins = settings.origins.clone();
    let cli = Origin::CommandLine;
    origins.layer("MINMSGLOG", cli, raw.msglog.map(|m| m.0), &mut p.minmsglog);
    origins.layer("MAXMSGLOG", cli, raw.msglog.map(|m| m.1), &mut p.maxmsglog);
    if let Some((msgs, vol, nonaggr)) = raw.iter {
        origins.layer("MSGSPERSAMPLE", cli, Some(msgs), &mut p.msgspersample);
        let vol = vol
            .map(|mb| {
                mb.checked_mul(1 << 20)
                    .filter(|&v| v <= settings::MAX_OVERALL_VOL)
                    .ok_or_else(|| {
                        Error::arg(
                            "-iter",
                            format!("{mb} MB is above OVERALL_VOL's 1 TiB limit"),
                        )
                    })
            })
            .transpose()?;
        origins.layer("OVERALL_VOL", cli, vol, &mut p.overall_vol);
        origins.layer("MSGS_NONAGGR", cli, nonaggr, &mut p.msgs_nonaggr);
    }
    for k in spec.keys {
        if let Some(v) = raw.family.get(k.name) {
            p.family.set(k.name, v.clone());
            origins.set(k.name, cli);
        }
    }
    Ok((p, origins))
}
