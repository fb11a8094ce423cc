//! IMB 2021's options that change how a run measures, and `-compat`, which takes IMB 2021's
//! defaults at once (doc/ReadMe_IMB.md, "IMB 2021 options"; the values are `method`'s). One
//! row each, with IMB 2021's names, syntax and meaning; listed in `-help` after the family's
//! own rows. What imb-rs cannot honour is refused with the reason (`IMB2021_REFUSED`).

use super::raw::Raw;
use super::table::{Opt, Takes};
use super::value::on_off;
use crate::method::{parse_off_cache, Compat, IterPolicy};

type Row = Opt<Raw>;
type Why = std::result::Result<(), String>;

const fn value(
    name: &'static str,
    set: super::table::Set<Raw>,
    synopsis: (u8, u8, &'static str),
    help: &'static str,
) -> Row {
    Opt::row(name, Takes::Value, set, synopsis, help)
}

/// IMB 2021 options imb-rs does not have, each with the reason, so a script written for IMB
/// 2021 fails saying why instead of "unknown option".
pub const IMB2021_REFUSED: &[(&str, &str)] = &[
    (
        "dump",
        "IMB 2021 has it only when built with yaml-cpp; imb-rs records every run's options \
         and results in the -json file (doc/OUTPUT.md), which imb-compare reads",
    ),
    (
        "load",
        "IMB 2021 has it only when built with yaml-cpp; imb-rs reads its parameters from a \
         settings file (-settings)",
    ),
    (
        "msgwidth",
        "not an option of IMB 2021's MPI executables; imb-rs has none like it",
    ),
];

/// `-mem_alloc_type`: where the buffers live. imb-rs has CPU memory only.
fn mem_alloc_type(v: &str) -> Why {
    match v.trim().to_ascii_lowercase().as_str() {
        "cpu" => Ok(()),
        "device" | "host" | "shared" => Err(format!(
            "{v}: GPU memory (IMB 2021's GPU builds) is not supported; imb-rs allocates CPU \
             memory (cpu)"
        )),
        _ => Err("expected cpu (device, host and shared need a GPU build)".into()),
    }
}

/// `-msgsize l1,l2,...`: byte lengths in the order given.
fn msgsize(v: &str) -> std::result::Result<Vec<usize>, String> {
    v.split(',')
        .map(|p| {
            let p = p.trim();
            p.parse::<usize>().map_err(|_| {
                if p.is_empty() {
                    "an empty item (write l1,l2,... in bytes)".to_string()
                } else if p.bytes().all(|b| b.is_ascii_digit()) {
                    format!("{p} is too large")
                } else {
                    format!("{p:?} is not a length in bytes (a whole number >= 0)")
                }
            })
        })
        .collect()
}

/// The rows, in `-help` order.
pub const METHOD: &[Row] = &[
    value(
        "compat",
        |r, v| -> Why {
            r.method.compat = Some(Compat::parse(v)?);
            Ok(())
        },
        (15, 0, "[-compat 3.0|2021]"),
        "- -compat 3.0|2021: whose defaults the run takes where IMB 3.0 and IMB 2021 measure\n  \
differently (doc/METHODOLOGY.md, \"IMB 3.0 and IMB 2021\"). 3.0 (default): one timer\n  \
around the repetitions, rotating roots, fixed repetition counts, warm-up once at the\n  \
largest size, MB = 2^20 bytes. 2021: collectives timed call by call with a barrier\n  \
between calls (-sync on), root 0 (-root_shift off), -iter_policy dynamic, a warm-up of\n  \
n_sample/10 repetitions at every size, MB = 10^6 bytes, IMB 2021's default benchmark\n  \
list and its CPU-work calibration for the non-blocking collectives. The profile is in\n  \
the header and -json; the options below refine it.\n",
    ),
    value(
        "iter_policy",
        |r, v| -> Why {
            r.method.iter_policy = Some(IterPolicy::parse(v)?);
            Ok(())
        },
        (15, 1, "[-iter_policy dynamic|multiple_np|auto|off]"),
        "- -iter_policy P: how n_sample is chosen. dynamic: the -iter rule, then probe loops cut\n  \
it to about -time seconds a size (default 10), never above a smaller size's count;\n  \
multiple_np: a count falling with the size, a multiple of the process count; auto:\n  \
multiple_np for rooted collectives, dynamic for the others; off: MSGSPERSAMPLE at every\n  \
size. Not given under -compat 3.0: IMB 3.0's rule, -time a cap on top.\n",
    ),
    value(
        "warm_up",
        |r, v| -> Why {
            r.method.warm_up = Some(on_off(v)?);
            Ok(())
        },
        (15, 2, "[-warm_up on|off]"),
        "- -warm_up on|off: the untimed warm-up (3.0: N_WARMUP repetitions at the largest size\n  \
before a table; 2021: n_sample/10 at every size); off: none.\n",
    ),
    value(
        "sync",
        |r, v| -> Why {
            r.method.sync = Some(on_off(v)?);
            Ok(())
        },
        (16, 0, "[-sync on|off]"),
        "- -sync on|off: time the collectives call by call, as IMB 2021 does, with (on) or\n  \
without (off) an untimed barrier after each call. Not given under -compat 3.0: one\n  \
timer around the whole loop (guide 5.2.7).\n",
    ),
    value(
        "root_shift",
        |r, v| -> Why {
            r.method.root_shift = Some(on_off(v)?);
            Ok(())
        },
        (16, 1, "[-root_shift on|off]"),
        "- -root_shift on|off: rooted collectives move the root by one each call (on, 3.0's\n  \
way) or keep root 0 (off, IMB 2021's default).\n",
    ),
    value(
        "imb_barrier",
        |r, v| -> Why {
            r.method.imb_barrier = Some(on_off(v)?);
            Ok(())
        },
        (16, 2, "[-imb_barrier on|off]"),
        "- -imb_barrier on: the barriers around timed loops are IMB 2021's own (a dissemination\n  \
barrier of zero-byte messages) instead of MPI_Barrier.\n",
    ),
    value(
        "msg_pause",
        |r, v| -> Why {
            r.method.msg_pause = Some(on_off(v)?);
            Ok(())
        },
        (16, 3, "[-msg_pause on|off]"),
        "- -msg_pause on: after each size, every rank sleeps as long as that size's timed loop\n  \
took (IMB 2021's pause between sizes).\n",
    ),
    value(
        "off_cache",
        |r, v| -> Why {
            r.method.off_cache = parse_off_cache(v)?;
            Ok(())
        },
        (17, 0, "[-off_cache <cache_size[,cache_line_size]>]"),
        "- -off_cache S[,L]: each repetition sends and receives in a copy of its messages a\n  \
line (L bytes, default 64) past the last one, through copies spanning twice an S MiB\n  \
cache (-1: 8 MiB), so no repetition finds its data in that cache (IMB 2021's mode; IMB\n  \
3.0 reuses one buffer). 0: off.\n",
    ),
    value(
        "msgsize",
        |r, v| -> Why {
            r.msgsize = Some(msgsize(v)?);
            r.msgsize_by = None;
            Ok(())
        },
        (17, 1, "[-msgsize <l1,l2,...>]"),
        "- -msgsize l1,l2,...: these message lengths in bytes, in this order, instead of the\n  \
ladder (as a -msglen file would give them).\n",
    ),
    value(
        "mem_alloc_type",
        |_, v| mem_alloc_type(v),
        (17, 2, "[-mem_alloc_type cpu]"),
        "- -mem_alloc_type cpu: buffers in CPU memory, the only kind imb-rs has (IMB 2021's GPU\n  \
builds also offer device, host and shared).\n",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msgsize_lists() {
        assert_eq!(msgsize("0, 4,1024").unwrap(), vec![0, 4, 1024]);
        assert!(msgsize("1,,2").unwrap_err().contains("empty"));
        assert!(msgsize("-1").unwrap_err().contains("not a length"));
        assert!(msgsize("99999999999999999999999")
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn memory_kinds() {
        assert!(mem_alloc_type("CPU").is_ok());
        assert!(mem_alloc_type("device").unwrap_err().contains("GPU"));
        assert!(mem_alloc_type("x").is_err());
    }
}
