//! The conditions a launch's file states, as the readers take them from a header, a `-json`
//! note or a calling sequence: the parameters that change a size's figure (imb-rs's optional-mode
//! and method blocks; IMB 2021's and IMB-P2P's command lines, over their defaults), the suite a
//! banner title names and how ranks sat on hosts. [`crate::conditions`] sets them side by side.

use std::collections::BTreeMap;

/// The parameters of an optional-mode block (imb-rs's `# !!` lines, or the `text` of a
/// `-json` file's `optional_mode` note: the same lines) that change a size's figure: every
/// `KEY = value (standard …)` but the size range (MINMSGLOG, MAXMSGLOG), the `-time` cap and
/// the `-adaptive` rule; and the method block's options (`-compat 2021`, `-sync on`, …, each
/// line ending in the option as given, `-iter_policy P: …`, and the lines of imb-p2p's
/// block that are an option as typed, `-pause 0`). Text and `-json` of one launch give the
/// same map.
pub fn optional_parameters<'a>(lines: impl Iterator<Item = &'a str>) -> BTreeMap<String, String> {
    let mut m = BTreeMap::new();
    // A method block (`Measured as …`) describes the method in words, some with `=` in them
    // (`n_sample = OVERALL_VOL / X …`): only its options count there.
    let mut in_method = false;
    for line in lines {
        let l = line.trim();
        if l.starts_with("Measured ") {
            in_method = true;
        } else if l.starts_with("Results from OPTIONAL mode") {
            in_method = false;
        }
        let options = method_options(l);
        if !options.is_empty() {
            m.extend(options);
        } else if let Some((name, value)) = typed_option(l) {
            m.insert(name, value);
        } else if in_method {
            continue;
        } else if let Some(rest) = l.strip_prefix("repetitions capped by -time ") {
            let secs = rest.split_whitespace().next().unwrap_or("");
            m.insert("-time".to_string(), format!("{secs} s"));
        } else if let Some(rest) = l.strip_prefix("-adaptive:") {
            // "… split into 5 timings, and timings are added (at most 10) until the 95 %
            // confidence interval of their median is within +-1 %; …": the numbers say it.
            let n: Vec<&str> = rest
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter(|w| !w.is_empty() && *w != ".")
                .collect();
            let v = match n.as_slice() {
                [min, max, _, cut, ..] => format!("{min}..{max} timings, cut-off {cut} %"),
                _ => rest.trim().to_string(),
            };
            m.insert("-adaptive".to_string(), v);
        } else if let Some((key, rest)) = l.split_once(" = ") {
            let key = key.trim();
            let size_range = matches!(key, "MINMSGLOG" | "MAXMSGLOG");
            if !size_range && !key.is_empty() && !key.contains(' ') {
                let value = rest.split(" (standard").next().unwrap_or(rest).trim();
                m.insert(key.to_string(), value.to_string());
            }
        }
    }
    m
}

/// Whether `name` (without its `-`) is spelt as an option: lowercase letters and `_`.
fn option_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

/// A line that is one option as typed, `-pause 0` (imb-p2p's method block lists its options
/// that differ from IMB-P2P's so).
fn typed_option(l: &str) -> Option<(String, String)> {
    let (name, value) = l.strip_prefix('-')?.split_once(' ')?;
    let value = value.trim();
    (option_name(name) && !value.is_empty() && !value.contains(' '))
        .then(|| (format!("-{name}"), value.to_string()))
}

/// The options a method line names: `… (-sync on)`, `Measured as IMB 2021 measures (-compat
/// 2021), …`, `-iter_policy dynamic: … (-time 1)` (the policy and the time it cuts to), each
/// with its value.
fn method_options(l: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if let Some(rest) = l.strip_prefix("-iter_policy ") {
        if let Some(v) = rest.split(':').next() {
            out.push(("-iter_policy".into(), v.trim().into()));
        }
    }
    let mut rest = l;
    while let Some((_, after)) = rest.split_once("(-") {
        rest = after;
        let Some(inside) = after.split(')').next() else {
            break;
        };
        if let Some((name, value)) = inside.split_once(' ') {
            if option_name(name) {
                out.push((format!("-{name}"), value.trim().to_string()));
            }
        }
    }
    out
}

/// IMB 2021's options that only choose what runs, not how a size is measured.
const IMB2021_CHOOSING: &[&str] = &[
    "-msglog",
    "-msglen",
    "-npmin",
    "-input",
    "-include",
    "-exclude",
    "-mem",
    "-multi",
    "-map",
    "-thread_level",
    "-zero_size",
    "-list",
    "-help",
];

/// IMB 2021's method where imb-rs's standard (IMB 3.0's) differs, as imb-rs's `-compat 2021`
/// block names it: an IMB 2021 run has these unless its command line says otherwise.
const IMB2021_METHOD: &[(&str, &str)] = &[
    ("-compat", "2021"),
    ("-iter_policy", "dynamic"),
    ("-root_shift", "off"),
    ("-sync", "on"),
    ("-warm_up", "on"),
];

/// IMB 2021's booleans (`1`, `yes`, `enable`, …) as imb-rs writes them, read by imb-rs's own
/// parser of them; anything else as given.
fn on_off(v: &str) -> String {
    match imb_core::cli::value::on_off(v) {
        Ok(true) => "on".into(),
        Ok(false) => "off".into(),
        Err(_) => v.to_string(),
    }
}

/// IMB 2021's counts that `-iter n[,vol[,nonaggr]]` sets, by the names imb-rs's header uses,
/// with their defaults (IMB_settings.h; IMB_settings_io.h for IMB-IO): imb-rs's standard
/// counts (settings/settings.toml, settings_io.toml) are the same.
pub type IterCounts = [(&'static str, u64); 3];

/// IMB-MPI1's, IMB-NBC's, IMB-EXT's, IMB-RMA's and IMB-MPI4's.
pub const IMB2021_COUNTS: IterCounts = [
    ("MSGSPERSAMPLE", 1000),
    ("OVERALL_VOL", 40 << 20),
    ("MSGS_NONAGGR", 100),
];

/// IMB-IO's.
pub const IMB2021_IO_COUNTS: IterCounts = [
    ("MSGSPERSAMPLE", 50),
    ("OVERALL_VOL", 16 << 20),
    ("MSGS_NONAGGR", 10),
];

/// The counts an `-iter` value sets, as IMB 2021 reads it: comma-separated fields, each
/// starting with a digit (else IMB 2021 refuses the run), the second in MiB.
fn iter_counts(value: &str, counts: &IterCounts, m: &mut BTreeMap<String, String>) {
    for (field, (key, _)) in value.split(',').zip(counts) {
        let Some(n) = field
            .starts_with(|c: char| c.is_ascii_digit())
            .then(|| leading_int(field))
            .flatten()
        else {
            return;
        };
        let n = if *key == "OVERALL_VOL" {
            n.saturating_mul(1 << 20)
        } else {
            n
        };
        m.insert(key.to_string(), n.to_string());
    }
}

/// The options on IMB 2021's calling sequence that change a size's figure (`-iter`, `-time`,
/// `-iter_policy`, `-sync`, `-off_cache`, …), each with its value, over IMB 2021's method
/// (`IMB2021_METHOD`), so that imb-rs's `-compat 2021` runs give the same map; `-iter`'s
/// counts under the names and in the units of imb-rs's optional-mode block (MSGSPERSAMPLE,
/// OVERALL_VOL in bytes, MSGS_NONAGGR), where they differ from IMB-MPI1's defaults.
pub fn imb2021_options(command: &str) -> BTreeMap<String, String> {
    imb2021_options_with(command, &IMB2021_COUNTS)
}

/// [`imb2021_options`] for a suite whose `-iter` defaults are `counts` (IMB-IO's).
pub fn imb2021_options_with(command: &str, counts: &IterCounts) -> BTreeMap<String, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut m: BTreeMap<String, String> = IMB2021_METHOD
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut k = 1;
    while k < words.len() {
        let w = words[k];
        if w.starts_with('-') && w.len() > 1 && w[1..].starts_with(|c: char| c.is_alphabetic()) {
            let value = words.get(k + 1).copied().unwrap_or("");
            if w == "-iter" {
                iter_counts(value, counts, &mut m);
            } else if !IMB2021_CHOOSING.contains(&w) {
                let value = match w {
                    "-sync" | "-root_shift" | "-warm_up" | "-imb_barrier" | "-msg_pause" => {
                        Some(on_off(value))
                    }
                    // In the spelling of imb-rs's method line; `0` is no copies at all.
                    "-off_cache" => match imb_core::method::parse_off_cache(value) {
                        Ok(oc) => oc.map(|oc| oc.arg()),
                        Err(_) => Some(value.to_string()),
                    },
                    _ => Some(value.to_string()),
                };
                if let Some(value) = value {
                    m.insert(w.to_string(), value);
                }
            }
            k += 2;
        } else {
            k += 1;
        }
    }
    for (key, standard) in counts {
        if m.get(*key) == Some(&standard.to_string()) {
            m.remove(*key);
        }
    }
    m
}

/// IMB-P2P's defaults (`-iter 100000,800`, `-msgrd on`, `-msgwr on`, `-pause 100000`) in
/// the names imb-p2p's header uses: its standard counts (settings/settings_p2p.toml) are
/// these, and it lists its options that differ from them as typed.
const IMB2021_P2P_DEFAULTS: &[(&str, &str)] = &[
    ("MSGSPERSAMPLE", "100000"),
    ("OVERALL_VOL", "838860800"),
    ("-msgrd", "on"),
    ("-msgwr", "on"),
    ("-pause", "100000"),
];

/// The leading whole number of `s`, sign and all, as C's `%d` reads it.
fn leading_int(s: &str) -> Option<i64> {
    let end = s
        .char_indices()
        .find(|&(k, c)| !(c.is_ascii_digit() || (k == 0 && (c == '-' || c == '+'))))
        .map_or(s.len(), |(k, _)| k);
    s[..end].parse().ok()
}

/// The options on IMB-P2P's calling sequence that change a size's figure, as imb-p2p's
/// header names them: `-iter max[,numerator]` is MSGSPERSAMPLE (max) and OVERALL_VOL
/// (numerator MiB, in bytes); `-msgrd`, `-msgwr` (on or off) and `-pause` (usec). Only the
/// values that differ from IMB-P2P's defaults are kept, so a run with its defaults is
/// standard, as an imb-p2p run is. IMB-P2P reads its options without regard to case, the last
/// one given wins, and an `-iter` whose numbers are not above 0 is ignored, as there.
pub fn imb2021_p2p_options(command: &str) -> BTreeMap<String, String> {
    let mut m: BTreeMap<String, String> = IMB2021_P2P_DEFAULTS
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut k = 1;
    while k < words.len() {
        let value = words.get(k + 1).copied().unwrap_or("");
        match words[k].to_ascii_lowercase().as_str() {
            "-iter" => {
                let mut parts = value.splitn(2, ',');
                let max = parts.next().and_then(leading_int);
                let numerator = parts.next().and_then(leading_int);
                match (max, numerator) {
                    (Some(max), Some(mib)) if max > 0 && mib > 0 => {
                        m.insert("MSGSPERSAMPLE".into(), max.to_string());
                        m.insert(
                            "OVERALL_VOL".into(),
                            mib.saturating_mul(1 << 20).to_string(),
                        );
                    }
                    (Some(max), None) if max > 0 => {
                        m.insert("MSGSPERSAMPLE".into(), max.to_string());
                    }
                    _ => {}
                }
            }
            w @ ("-msgrd" | "-msgwr") => {
                m.insert(w.to_string(), on_off(value));
            }
            "-pause" => {
                // A pause below 0 is none at all there, as 0 is.
                let v = leading_int(value).map_or(value.to_string(), |p| p.max(0).to_string());
                m.insert("-pause".into(), v);
            }
            _ => {
                k += 1;
                continue;
            }
        }
        k += 2;
    }
    for (key, standard) in IMB2021_P2P_DEFAULTS {
        if m.get(*key).map(String::as_str) == Some(*standard) {
            m.remove(*key);
        }
    }
    m
}

/// The suite a banner title names, as IMB 2021 and imb-rs both call it once the program's
/// own words are set aside: "MPI-1" ("…, MPI-1 part"), "P2P" (IMB 2021's "IMB-P2P part",
/// imb-rs's "P2P part"), "MT", "MPI-4", …; `None` for a title without a part (OSU).
pub fn suite(title: &str) -> Option<String> {
    let part = title.split(", ").find(|p| p.contains(" part"))?;
    let name = part.split(" part").next()?.trim();
    let name = name.strip_prefix("IMB-").unwrap_or(name);
    (!name.is_empty()).then(|| name.to_string())
}

/// "2 ranks on 1 host", "1+1 ranks on 2 hosts": how many ranks sat on each host, largest first.
pub fn spread(mut per_host: Vec<usize>) -> String {
    per_host.sort_unstable_by(|a, b| b.cmp(a));
    let total: usize = per_host.iter().sum();
    let ranks = if total == 1 { "rank" } else { "ranks" };
    match per_host.len() {
        1 => format!("{total} {ranks} on 1 host"),
        h => {
            let parts: Vec<String> = per_host.iter().map(usize::to_string).collect();
            format!("{} {ranks} on {h} hosts", parts.join("+"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn optional_block_lines() {
        let lines = [
            " Results from OPTIONAL mode, not standard mode:",
            " parameters set by the command line:",
            "   MINMSGLOG = 2 (standard 0)",
            "   MAXMSGLOG = 4 (standard 22)",
            "   MSGSPERSAMPLE = 50 (standard 1000)",
            "   repetitions capped by -time 0.5 s per message size",
            "   -adaptive: each size's n_sample loop is split into 5 timings, and timings are \
             added (at most 10) until the 95 % confidence interval of their median is within \
             +-1 %; rows show each rank's median",
        ];
        let m = optional_parameters(lines.into_iter());
        let got: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            got,
            [
                ("-adaptive", "5..10 timings, cut-off 1 %"),
                ("-time", "0.5 s"),
                ("MSGSPERSAMPLE", "50")
            ]
        );
    }

    #[test]
    fn imb2021_calling_sequence() {
        let m = imb2021_options(
            "./IMB-MPI1 PingPong -msglog 0:4 -iter 50 -thread_level multiple -time 2 Barrier",
        );
        let got: Vec<(&str, &str)> = m.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            got,
            [
                ("-compat", "2021"),
                ("-iter_policy", "dynamic"),
                ("-root_shift", "off"),
                ("-sync", "on"),
                ("-time", "2"),
                ("-warm_up", "on"),
                ("MSGSPERSAMPLE", "50"),
            ]
        );
        assert_eq!(imb2021_options("./IMB-MPI1 -sync 0")["-sync"], "off");
        // -iter's fields are imb-rs's counts, in its units; a default is standard.
        let m = imb2021_options("./IMB-MPI1 -iter 1000,8,7");
        assert!(!m.contains_key("MSGSPERSAMPLE"));
        assert_eq!(m["OVERALL_VOL"], "8388608");
        assert_eq!(m["MSGS_NONAGGR"], "7");
        let io = imb2021_options_with("./IMB-IO -iter 50,2", &IMB2021_IO_COUNTS);
        assert!(!io.contains_key("MSGSPERSAMPLE"));
        assert_eq!(io["OVERALL_VOL"], "2097152");
        // imb-rs's -compat 2021 block gives the same map as IMB 2021's defaults.
        let ours = optional_parameters(
            [
                " Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:",
                "   collectives timed call by call, an untimed barrier after each call (-sync on)",
                "   rooted collectives keep root 0 (-root_shift off)",
                "   -iter_policy dynamic: repetitions cut to about 10 s per size after probe loops",
                "   warm-up: n_sample/10 repetitions before every size (-warm_up on)",
                "   Mbytes/sec counts MB = 10^6 bytes",
            ]
            .into_iter(),
        );
        assert_eq!(ours, imb2021_options("./IMB-MPI1 PingPong"));
        // -time under -compat 2021 is on the policy's line, as imb-mpi1 prints it: a condition,
        // read as IMB 2021's -time reads.
        let timed = |t: &str| {
            optional_parameters(
                [
                    " Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:",
                    "   collectives timed call by call, an untimed barrier after each call (-sync on)",
                    "   rooted collectives keep root 0 (-root_shift off)",
                    &format!(
                        "   -iter_policy dynamic: repetitions cut to about {t} s per size after \
                         probe loops (-time {t})"
                    ),
                    "   warm-up: n_sample/10 repetitions before every size (-warm_up on)",
                ]
                .into_iter(),
            )
        };
        assert_eq!(timed("1")["-time"], "1");
        assert_ne!(timed("1"), timed("0.01"));
        assert_eq!(timed("1"), imb2021_options("./IMB-MPI1 -time 1 PingPong"));
        assert_eq!(
            imb2021_options("./IMB-MPI1 -off_cache -1")["-off_cache"],
            "8,64"
        );
        assert!(!imb2021_options("./IMB-MPI1 -off_cache 0").contains_key("-off_cache"));
        // imb-rs's header line for -off_cache, however it was given, reads as IMB 2021's.
        use imb_core::method::{parse_off_cache, Compat, Given, Method};
        for given in ["-1", "8", "8,64"] {
            let m = Method::resolve(&Given {
                compat: Some(Compat::V2021),
                off_cache: parse_off_cache(given).unwrap(),
                ..Given::default()
            });
            let lines = m.changes(None);
            let title =
                "Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:";
            let ours =
                optional_parameters([title].into_iter().chain(lines.iter().map(String::as_str)));
            assert_eq!(
                ours,
                imb2021_options("./IMB-MPI1 -off_cache -1"),
                "{given}: {lines:?}"
            );
        }
    }

    #[test]
    fn imb_p2p_calling_sequence() {
        let got =
            |cmd: &str| -> Vec<(String, String)> { imb2021_p2p_options(cmd).into_iter().collect() };
        let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
        // IMB-P2P's own defaults are standard: none of IMB-MPI1's method.
        assert!(got("./IMB-P2P PingPong -msglog 0:4").is_empty());
        assert!(got("./IMB-P2P -iter 100000,800 -pause 100000 -msgrd yes -MSGWR 1").is_empty());
        assert_eq!(
            got("./IMB-P2P -msglog 0:12 -iter 1000 -pause 0 PingPong"),
            [pair("-pause", "0"), pair("MSGSPERSAMPLE", "1000")]
        );
        // max,numerator: the numerator in MiB; case, the last one given, 0 ignored.
        assert_eq!(
            got("./IMB-P2P -iter 100,5 -MsgRd off -pause 7 -pause -3 -iter 0,9"),
            [
                pair("-msgrd", "off"),
                pair("-pause", "0"),
                pair("MSGSPERSAMPLE", "100"),
                pair("OVERALL_VOL", "5242880"),
            ]
        );
        // imb-p2p's header, text or -json note, gives the same map.
        let ours = optional_parameters(
            [
                "Measured as IMB 2021's IMB-P2P measures:",
                "  n_sample = OVERALL_VOL / X rounded to the nearest count; n_sample/10 warm-up \
                 repetitions before every size",
                "  IMB 2021's dissemination barrier before the warm-up and the timer",
                "  Mbytes/sec counts MB = 10^6 bytes",
                "  -msgrd off",
                "  -pause 0",
                "",
                "Results from OPTIONAL mode, not standard mode:",
                "parameters set by the command line:",
                "  MAXMSGLOG = 4 (standard 22)",
                "  MSGSPERSAMPLE = 100 (standard 100000)",
                "  OVERALL_VOL = 5242880 (standard 838860800)",
            ]
            .into_iter(),
        );
        assert_eq!(
            ours,
            imb2021_p2p_options("./IMB-P2P -iter 100,5 -pause 0 -msgrd 0")
        );
    }

    #[test]
    fn suites() {
        let s = |t: &str| suite(t);
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, IMB-P2P part").as_deref(),
            Some("P2P")
        );
        assert_eq!(s("imb-rs 0.1.0, P2P part").as_deref(), Some("P2P"));
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, MT part").as_deref(),
            Some("MT")
        );
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, MPI-4 part").as_deref(),
            Some("MPI-4")
        );
        assert_eq!(
            s("Intel (R) MPI Benchmark Suite V3.0, MPI-1 part").as_deref(),
            Some("MPI-1")
        );
        // IMB 2021's IMB-IO title lacks its newline escape: "MPI-IO partn".
        assert_eq!(
            s("Intel(R) MPI Benchmarks 2021.11, MPI-IO partn").as_deref(),
            Some("MPI-IO")
        );
        assert_eq!(s("OSU"), None);
    }
}
