//! imb-p2p's options (doc/ARCHITECTURE.md, "A new option"): IMB-P2P's `-msgrd`, `-msgwr`,
//! `-pause` and `-msgsz`, and its reading of `-msglog` (a row replacing the engine's: `k:n`
//! has no 0-byte size); `-npmin` and the other executables' options refused. `-iter
//! max,numerator` and `-msglen` are the engine's rows (doc/ReadMe_IMB.md, "imb-p2p"). Nothing
//! here touches MPI.

use imb_core::cli::raw::Raw;
use imb_core::cli::table::{Opt, Takes};
use imb_core::cli::value::parse_msglog;
use imb_core::cli::{Family, FamilyIn, Refused};
use imb_core::settings::MAX_MSGLOG;
use imb_core::settings::{self, Spec};
use imb_core::values::{Slot, Values};

/// `-msgrd`: read one byte of every 64 of a message after it arrived.
pub const MSGRD: Slot<bool> = Slot::new("msgrd");
/// `-msgwr`: write one byte of every 64 of a message before it is sent.
pub const MSGWR: Slot<bool> = Slot::new("msgwr");
/// `-pause`: microseconds slept before and after every size's loops.
pub const PAUSE: Slot<usize> = Slot::new("pause");

/// IMB-P2P's default `-pause`: 100 ms.
pub const DEFAULT_PAUSE_US: usize = 100_000;
/// The largest `-pause`: one hour.
pub const MAX_PAUSE_US: usize = 3_600_000_000;

/// What the kernels read: the resolved options of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conf {
    pub msgrd: bool,
    pub msgwr: bool,
    pub pause_us: usize,
}

impl Conf {
    /// IMB-P2P's defaults: both touches on, 100 ms pauses.
    pub const IMB: Conf = Conf {
        msgrd: true,
        msgwr: true,
        pause_us: DEFAULT_PAUSE_US,
    };

    /// The options that differ from IMB-P2P's defaults, as they would be typed.
    pub fn changes(&self) -> Vec<String> {
        let on = |b: bool| if b { "on" } else { "off" };
        let mut v = Vec::new();
        if self.msgrd != Conf::IMB.msgrd {
            v.push(format!("-msgrd {}", on(self.msgrd)));
        }
        if self.msgwr != Conf::IMB.msgwr {
            v.push(format!("-msgwr {}", on(self.msgwr)));
        }
        if self.pause_us != Conf::IMB.pause_us {
            v.push(format!("-pause {}", self.pause_us));
        }
        v
    }

    /// The run's values, IMB-P2P's defaults where none was given.
    pub fn of(v: &Values) -> Conf {
        Conf {
            msgrd: MSGRD.get(v).unwrap_or(Conf::IMB.msgrd),
            msgwr: MSGWR.get(v).unwrap_or(Conf::IMB.msgwr),
            pause_us: PAUSE.get(v).unwrap_or(Conf::IMB.pause_us),
        }
    }
}

/// The run-time bound's share of `-pause` (`Hooks::sleep`): every loop of a size, its warm-up
/// and timed repetitions together (`kernel::P2pLoop`), sleeps the pause before and after.
pub fn sleep(o: &imb_core::cli::Options) -> Option<imb_core::plan::Sleep> {
    let us = Conf::of(&o.family).pause_us;
    (us > 0).then_some(imb_core::plan::Sleep {
        secs: 2.0 * us as f64 * 1e-6,
        option: "-pause",
    })
}

/// IMB-P2P's spelling of a switch: 1/0, on/off, enable/disable, yes/no, true/false, any case.
pub fn switch(v: &str) -> Result<bool, String> {
    let w = v.to_ascii_lowercase();
    match w.as_str() {
        "1" | "on" | "enable" | "yes" | "true" => Ok(true),
        "0" | "off" | "disable" | "no" | "false" => Ok(false),
        _ => Err("expected one of 0, 1, false, true, disable, enable, off, on, no, yes".into()),
    }
}

/// `-msglog n`: 0, 1, 2, 4, ..., 2^n; `-msglog k:n`: 2^k, ..., 2^n (no 0-byte size), as
/// IMB-P2P has them. The exponents also set MINMSGLOG and MAXMSGLOG (the buffers' size).
pub fn msglog(r: &mut Raw, v: &str) -> Result<(), String> {
    let (k, n) = parse_msglog(v)?;
    let zero = !v.contains(':');
    let from = if zero { 0 } else { k };
    let mut lens: Vec<usize> = if zero { vec![0] } else { Vec::new() };
    lens.extend((from..=n).map(|e| 1usize << e));
    r.msglog = Some((k, n));
    r.msgsize = Some(lens);
    r.msgsize_by = Some("msglog");
    Ok(())
}

/// `-msgsz L[k|m|g]`: one more length after those given so far (alone, only it), in the order
/// given; MAXMSGLOG rises to hold it.
pub fn msgsz(r: &mut Raw, v: &str) -> Result<(), String> {
    let x = length(v)?;
    let need = x.next_power_of_two().trailing_zeros();
    let (k, n) = r.msglog.unwrap_or((0, DEFAULT_MAXMSGLOG));
    if need > n {
        r.msglog = Some((k, need));
    }
    r.msgsize.get_or_insert_with(Vec::new).push(x);
    r.msgsize_by = Some("msgsz");
    Ok(())
}

/// MAXMSGLOG of settings_p2p.toml: IMB-P2P's largest default length, 4 MiB.
pub const DEFAULT_MAXMSGLOG: u32 = 22;

/// A length in bytes, optionally followed by k, m or g (binary multiples, any case), at most
/// 2^MAX_MSGLOG.
pub fn length(v: &str) -> Result<usize, String> {
    let t = v.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        _ => return Err("expected bytes, optionally followed by k, m or g".into()),
    };
    let max = 1usize << MAX_MSGLOG;
    match digits.parse::<usize>() {
        Ok(n)
            if n.checked_shl(shift)
                .is_some_and(|x| x >> shift == n && x <= max) =>
        {
            Ok(n << shift)
        }
        Ok(_) => Err(format!("at most 2^{MAX_MSGLOG} bytes (1g)")),
        Err(_) => Err("expected bytes, optionally followed by k, m or g".into()),
    }
}

/// Microseconds from 0 to an hour.
pub fn pause(v: &str) -> Result<usize, String> {
    match v.trim().parse::<usize>() {
        Ok(n) if n <= MAX_PAUSE_US => Ok(n),
        _ => Err(format!(
            "expected microseconds from 0 to {MAX_PAUSE_US} (one hour)"
        )),
    }
}

/// imb-p2p's own settings file: imb-core's keys, IMB-P2P's counts as standard values.
pub static SETTINGS: Spec = Spec {
    file: "settings/settings_p2p.toml",
    toml: include_str!("../../../settings/settings_p2p.toml"),
    ..settings::STANDARD
};

fn resolve(i: &FamilyIn) -> imb_core::error::Result<Values> {
    let c = Conf::of(i.raw);
    let mut v = Values::default();
    MSGRD.set(&mut v, c.msgrd);
    MSGWR.set(&mut v, c.msgwr);
    PAUSE.set(&mut v, c.pause_us);
    Ok(v)
}

/// imb-p2p's options: its three rows, and the options it refuses.
pub static OPTIONS: Family = Family {
    rows: &[
        Opt::row(
            "msgrd",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                MSGRD.set(&mut r.family, switch(v)?);
                Ok(())
            },
            (10, 1, "[-msgrd on|off]"),
            "- -msgrd on|off (also 1|0, true|false, yes|no, enable|disable): read one byte of\n  \
every 64 of each received message, outside no timer but the loop's (IMB-P2P; default on).\n",
        ),
        Opt::row(
            "msgwr",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                MSGWR.set(&mut r.family, switch(v)?);
                Ok(())
            },
            (10, 2, "[-msgwr on|off]"),
            "- -msgwr on|off: store into one byte of every 64 of each message before it is sent\n  \
(IMB-P2P; default on).\n",
        ),
        Opt::row(
            "pause",
            Takes::Value,
            |r: &mut Raw, v| -> Result<(), String> {
                PAUSE.set(&mut r.family, pause(v)?);
                Ok(())
            },
            (10, 3, "[-pause <usec>]"),
            "- -pause usec: sleep this long before and after each size's loops, untimed\n  \
(IMB-P2P; default 100000).\n",
        ),
        Opt::row(
            "msgsz",
            Takes::Value,
            msgsz,
            (10, 4, "[-msgsz <bytes>[k|m|g]]"),
            "- -msgsz L: one more message length (bytes, or with k, m, g), after those of\n  \
-msgsz or -msglog before it; given alone, only these lengths run, in their order (IMB-P2P).\n\n",
        ),
        Opt::row(
            "msglog",
            Takes::Value,
            msglog,
            (6, 0, "[-msglog <n>|<k>:<n>]"),
            "- -msglog n: lengths 0, 1, 2, 4, ..., 2^n; -msglog k:n: lengths 2^k, ..., 2^n,\n  \
without 0 (IMB-P2P; default 0, 1, ..., 4 MiB).\n",
        ),
    ],
    refused: &[
        Refused {
            name: "compat",
            takes: Takes::Value,
            why: "{exe} always measures as IMB 2021's IMB-P2P does (IMB 3.0 had no IMB-P2P), \
                  so -compat has nothing to choose: leave it out",
        },
        Refused {
            name: "iter_policy",
            takes: Takes::Value,
            why: "IMB-P2P counts its repetitions by -iter max,numerator alone",
        },
        Refused {
            name: "warm_up",
            takes: Takes::Value,
            why: "IMB-P2P warms up before every size, n_sample/10 repetitions",
        },
        Refused {
            name: "imb_barrier",
            takes: Takes::Value,
            why: "{exe} always uses IMB-P2P's barrier of zero-byte MPI_Sendrecv rounds",
        },
        Refused {
            name: "msg_pause",
            takes: Takes::Value,
            why: "{exe} pauses as IMB-P2P does: -pause usec",
        },
        Refused {
            name: "off_cache",
            takes: Takes::Value,
            why: "IMB-P2P has no -off_cache (IMB-MPI1, IMB-NBC and IMB-RMA have)",
        },
        Refused {
            name: "npmin",
            takes: Takes::Value,
            why: "{exe} runs every benchmark once on all processes of the run, as IMB-P2P does",
        },
        Refused {
            name: "window_size",
            takes: Takes::Value,
            why: "{exe} has no benchmark with a window of messages (imb-mpi1's Uniband and \
                  Biband have)",
        },
        Refused {
            name: "dir",
            takes: Takes::Value,
            why: "only imb-io creates files",
        },
        Refused {
            name: "overwrite",
            takes: Takes::Flag,
            why: "only imb-io creates files",
        },
        Refused {
            name: "sync",
            takes: Takes::Value,
            why: "{exe} has no collective timed call by call (imb-mpi1's and imb-nbc's are)",
        },
        Refused {
            name: "root_shift",
            takes: Takes::Value,
            why: "{exe} has no rooted collective (imb-mpi1 and imb-nbc have)",
        },
        Refused {
            name: "data_type",
            takes: Takes::Value,
            why: "IMB 2021 has it only in IMB-MPI1: {exe} moves MPI_BYTE",
        },
        Refused {
            name: "red_data_type",
            takes: Takes::Value,
            why: "IMB 2021 has it only in IMB-MPI1: {exe} sums nothing",
        },
        Refused {
            name: "contig_type",
            takes: Takes::Value,
            why: "IMB 2021 has it only in IMB-MPI1: {exe}'s messages are contiguous",
        },
    ],
    resolve,
    ..Family::NONE
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_as_imb_p2p() {
        for t in ["1", "on", "ENABLE", "yes", "True"] {
            assert_eq!(switch(t), Ok(true), "{t}");
        }
        for f in ["0", "Off", "disable", "NO", "false"] {
            assert_eq!(switch(f), Ok(false), "{f}");
        }
        assert!(switch("maybe").unwrap_err().contains("0, 1, false, true"));
    }

    fn lens(args: &[(&str, &str)]) -> (Option<(u32, u32)>, Option<Vec<usize>>) {
        let mut r = Raw::default();
        for (o, v) in args {
            match *o {
                "msglog" => msglog(&mut r, v).unwrap(),
                _ => msgsz(&mut r, v).unwrap(),
            }
        }
        (r.msglog, r.msgsize)
    }

    #[test]
    fn lengths_as_imb_p2p() {
        assert_eq!(
            lens(&[("msglog", "3")]),
            (Some((0, 3)), Some(vec![0, 1, 2, 4, 8]))
        );
        assert_eq!(
            lens(&[("msglog", "2:4")]),
            (Some((2, 4)), Some(vec![4, 8, 16]))
        );
        assert_eq!(
            lens(&[("msgsz", "4097"), ("msgsz", "5")]),
            (None, Some(vec![4097, 5]))
        );
        // -msgsz after -msglog adds to its lengths; -msglog after -msgsz starts again.
        assert_eq!(
            lens(&[("msglog", "1:2"), ("msgsz", "3")]),
            (Some((1, 2)), Some(vec![2, 4, 3]))
        );
        assert_eq!(lens(&[("msgsz", "3"), ("msglog", "1:1")]).1, Some(vec![2]));
        // A length above 2^MAXMSGLOG raises it.
        assert_eq!(
            lens(&[("msgsz", "5m")]),
            (Some((0, 23)), Some(vec![5 << 20]))
        );
        assert_eq!(lens(&[("msgsz", "2K")]).1, Some(vec![2048]));
        assert_eq!(length("1g"), Ok(1 << 30));
        for bad in [
            "",
            "x",
            "5t",
            "-1",
            "2g",
            "1073741825",
            "99999999999999999999k",
        ] {
            assert!(length(bad).is_err(), "{bad}");
        }
        let mut r = Raw::default();
        assert!(msglog(&mut r, "5:3").is_err() && msglog(&mut r, "31").is_err());
    }

    #[test]
    fn pause_range() {
        assert_eq!(pause("0"), Ok(0));
        assert_eq!(pause("250"), Ok(250));
        assert!(pause("-1").is_err());
        assert!(pause("x").is_err());
        assert!(pause("3600000001").is_err());
    }

    #[test]
    fn changes_as_typed() {
        assert!(Conf::IMB.changes().is_empty());
        let c = Conf {
            msgrd: false,
            pause_us: 0,
            ..Conf::IMB
        };
        assert_eq!(c.changes(), ["-msgrd off", "-pause 0"]);
    }

    #[test]
    fn defaults_are_imb_p2ps() {
        assert_eq!(Conf::of(&Values::default()), Conf::IMB);
        let mut v = Values::default();
        MSGWR.set(&mut v, false);
        PAUSE.set(&mut v, 0);
        assert_eq!(
            Conf::of(&v),
            Conf {
                msgrd: true,
                msgwr: false,
                pause_us: 0
            }
        );
    }
}
