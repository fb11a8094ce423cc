//! How a run measures where IMB 3.0 and IMB 2021 differ (doc/METHODOLOGY.md, "IMB 3.0 and
//! IMB 2021"): which IMB's defaults a run takes (`-compat`), and the IMB 2021 options that
//! change the timed loop, the repetition counts and the warm-up. The values and the pure
//! rules live here; the driver and the kernels apply them.

use serde::{Deserialize, Serialize};

/// Which IMB a run follows where the two differ. `V30` is the guide's method, imb-rs's
/// standard; `V2021` takes IMB 2021's defaults at once (`-compat 2021`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Compat {
    #[default]
    #[serde(rename = "3.0")]
    V30,
    #[serde(rename = "2021")]
    V2021,
}

impl Compat {
    pub fn parse(s: &str) -> Result<Compat, String> {
        match s.trim() {
            "3.0" | "3" | "30" => Ok(Compat::V30),
            "2021" => Ok(Compat::V2021),
            _ => Err("expected 3.0 or 2021".into()),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Compat::V30 => "3.0",
            Compat::V2021 => "2021",
        }
    }
}

/// How n_sample is chosen for a size (IMB 2021's `-iter_policy`, and IMB 3.0's rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IterPolicy {
    /// IMB 3.0 (guide 5.2.2): min(MSGSPERSAMPLE, max(1, OVERALL_VOL/X)), MSGS_NONAGGR for
    /// non-aggregate modes; `-time` caps it.
    Volume,
    /// IMB 2021's default: the volume rule, then two probe loops cut it to about `-time`
    /// seconds a size, never more repetitions than a smaller size got.
    Dynamic,
    /// MSGSPERSAMPLE at every size and mode.
    Off,
    /// A count falling with the size, a multiple of the process count (rooted collectives
    /// then give every rank the root equally often under `-root_shift on`).
    MultipleNp,
    /// `MultipleNp` for rooted benchmarks, `Dynamic` for the others.
    Auto,
}

impl IterPolicy {
    pub fn parse(s: &str) -> Result<IterPolicy, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dynamic" => Ok(IterPolicy::Dynamic),
            "off" => Ok(IterPolicy::Off),
            "multiple_np" => Ok(IterPolicy::MultipleNp),
            "auto" => Ok(IterPolicy::Auto),
            _ => Err("expected dynamic, multiple_np, auto or off".into()),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            IterPolicy::Volume => "volume (IMB 3.0)",
            IterPolicy::Dynamic => "dynamic",
            IterPolicy::Off => "off",
            IterPolicy::MultipleNp => "multiple_np",
            IterPolicy::Auto => "auto",
        }
    }
    /// The policy a benchmark gets: `Auto` resolved by whether it has a root.
    pub fn for_bench(self, rooted: bool) -> IterPolicy {
        match self {
            IterPolicy::Auto if rooted => IterPolicy::MultipleNp,
            IterPolicy::Auto => IterPolicy::Dynamic,
            p => p,
        }
    }
}

/// The untimed repetitions before a size is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WarmUp {
    /// IMB 3.0 (guide 5.2.6): N_WARMUP repetitions at 2^MAXMSGLOG before a step's first size.
    Largest,
    /// IMB 2021: n_sample/10 repetitions (at least 1) of the size itself, before every size.
    EverySize,
    Off,
}

/// The timed loop of the benchmarks IMB 2021 times call by call (its collectives).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// IMB 3.0: one timer around n_sample back-to-back calls.
    Loop,
    /// IMB 2021: each call timed on its own and the times summed; `sync`: one barrier,
    /// untimed, after every call (`-sync`).
    PerCall { sync: bool },
}

/// `-off_cache`: the cache to defeat, in bytes, and its line size (IMB 2021, `-off_cache
/// size[,line]` in MiB, -1 for its 8 MiB and 64 B).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct OffCache {
    pub cache_bytes: usize,
    pub line_bytes: usize,
}

impl OffCache {
    /// The cache in MiB, to 4 decimals and without trailing zeros (what `-off_cache` takes).
    pub fn mib(&self) -> String {
        let s = format!("{:.4}", self.cache_bytes as f64 / 1048576.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
    /// The option's value in one spelling, `S,L`, so that runs given `-1` and `8,64` (or
    /// IMB 2021's command line and imb-rs's header) read alike.
    pub fn arg(&self) -> String {
        format!("{},{}", self.mib(), self.line_bytes)
    }
}

/// `-time`'s default under the dynamic policy: IMB 2021's seconds per size.
pub const DYNAMIC_SECS: f64 = 10.0;

/// The method block's line for IMB 2021's megabyte, which readers of the output recognise.
pub const DECIMAL_MEGABYTE: &str = "Mbytes/sec counts MB = 10^6 bytes";

/// Bytes in the megabyte of `Mbytes/sec`: 2^20 in IMB 3.0 (guide 3.3.2), 10^6 in IMB 2021.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Megabyte(pub f64);

impl Megabyte {
    pub const IMB30: Megabyte = Megabyte(1048576.0);
}

/// The measurement method of a run, resolved from `-compat` and the options that refine it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Method {
    pub compat: Compat,
    /// How the benchmarks that IMB 2021 times call by call are timed (`-sync`).
    pub timing: Timing,
    /// Rooted collectives move the root by one each call (`-root_shift on`) or keep root 0
    /// (off). None: not given, so each family's own default: imb-mpi1's is its profile's
    /// (IMB 3.0 rotates, IMB 2021 keeps root 0; `roots`), imb-nbc's root 0 under either, as
    /// IMB-NBC (`roots_or_zero`).
    pub root_shift: Option<bool>,
    /// Barriers are IMB 2021's dissemination barrier of zero-byte messages (`-imb_barrier`).
    pub imb_barrier: bool,
    pub warm_up: WarmUp,
    pub iter_policy: IterPolicy,
    /// `-msg_pause on`: after each size, sleep as long as its timed loop took.
    pub msg_pause: bool,
    pub off_cache: Option<OffCache>,
    pub megabyte: Megabyte,
}

/// The IMB 2021 options that refine a profile, as given (None: the profile's default).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Given {
    pub compat: Option<Compat>,
    pub sync: Option<bool>,
    pub root_shift: Option<bool>,
    pub imb_barrier: Option<bool>,
    pub warm_up: Option<bool>,
    pub iter_policy: Option<IterPolicy>,
    pub msg_pause: Option<bool>,
    pub off_cache: Option<OffCache>,
}

impl Method {
    /// IMB 3.0's method, imb-rs's standard (what `resolve` gives with nothing given).
    pub const IMB30: Method = Method {
        compat: Compat::V30,
        timing: Timing::Loop,
        root_shift: None,
        imb_barrier: false,
        warm_up: WarmUp::Largest,
        iter_policy: IterPolicy::Volume,
        msg_pause: false,
        off_cache: None,
        megabyte: Megabyte(1048576.0),
    };

    /// A profile's defaults with the options given on top. `-sync` on or off asks for IMB
    /// 2021's call-by-call timing whatever the profile.
    pub fn resolve(g: &Given) -> Method {
        let compat = g.compat.unwrap_or_default();
        let v21 = compat == Compat::V2021;
        let timing = match g.sync {
            Some(sync) => Timing::PerCall { sync },
            None if v21 => Timing::PerCall { sync: true },
            None => Timing::Loop,
        };
        let warm_up = match (g.warm_up.unwrap_or(true), v21) {
            (false, _) => WarmUp::Off,
            (true, true) => WarmUp::EverySize,
            (true, false) => WarmUp::Largest,
        };
        Method {
            compat,
            timing,
            root_shift: g.root_shift,
            imb_barrier: g.imb_barrier.unwrap_or(false),
            warm_up,
            iter_policy: g.iter_policy.unwrap_or(if v21 {
                IterPolicy::Dynamic
            } else {
                IterPolicy::Volume
            }),
            msg_pause: g.msg_pause.unwrap_or(false),
            off_cache: g.off_cache,
            megabyte: Megabyte(if v21 { 1e6 } else { 1048576.0 }),
        }
    }

    /// Roots a rooted collective cycles through on `np` processes: all of them in turn, or
    /// root 0 alone; `-root_shift` not given, the profile's way. Repetition i uses root
    /// `i % roots`.
    pub fn roots(&self, np: usize) -> usize {
        Self::cycle(self.root_shift.unwrap_or(self.compat == Compat::V30), np)
    }
    /// The same for a family whose root is 0 unless `-root_shift on` (imb-nbc).
    pub fn roots_or_zero(&self, np: usize) -> usize {
        Self::cycle(self.root_shift.unwrap_or(false), np)
    }
    fn cycle(shift: bool, np: usize) -> usize {
        if shift {
            np.max(1)
        } else {
            1
        }
    }
}

impl Method {
    /// How this method differs from IMB 3.0's, a line each (`-time` is the dynamic policy's
    /// seconds per size); empty for IMB 3.0's.
    pub fn changes(&self, time: Option<f64>) -> Vec<String> {
        let m = Method::IMB30;
        let mut v = Vec::new();
        if let Timing::PerCall { sync } = self.timing {
            v.push(
                if sync {
                    "collectives timed call by call, an untimed barrier after each call (-sync on)"
                } else {
                    "collectives timed call by call, no barrier between calls (-sync off)"
                }
                .to_string(),
            );
        }
        // As given, or as -compat 2021 implies: the families' defaults differ (imb-nbc keeps
        // root 0 under 3.0 too), so the line says what was asked, not how it differs.
        match (self.root_shift, self.compat) {
            (Some(false), _) | (None, Compat::V2021) => {
                v.push("rooted collectives keep root 0 (-root_shift off)".into())
            }
            (Some(true), _) => {
                v.push("rooted collectives move the root each call (-root_shift on)".into())
            }
            (None, Compat::V30) => {}
        }
        if self.imb_barrier {
            v.push("barriers are IMB 2021's dissemination barrier (-imb_barrier on)".into());
        }
        match self.iter_policy {
            IterPolicy::Volume => {}
            IterPolicy::Dynamic | IterPolicy::Auto => v.push(format!(
                "-iter_policy {}: repetitions cut to about {} s per size after probe loops{}",
                self.iter_policy.name(),
                time.unwrap_or(DYNAMIC_SECS),
                time.map(|t| format!(" (-time {t})")).unwrap_or_default()
            )),
            p => v.push(format!(
                "-iter_policy {}: repetitions not from the volume rule",
                p.name()
            )),
        }
        match self.warm_up {
            WarmUp::Largest => {}
            WarmUp::EverySize => {
                v.push("warm-up: n_sample/10 repetitions before every size (-warm_up on)".into())
            }
            WarmUp::Off => v.push("no warm-up (-warm_up off)".into()),
        }
        if self.msg_pause {
            v.push("a pause after every size (-msg_pause on)".into());
        }
        if let Some(oc) = self.off_cache {
            v.push(format!(
                "each repetition in its own copy of the messages, the copies spanning twice \
                 the cache ({} MiB, {}-byte lines) (-off_cache {})",
                oc.mib(),
                oc.line_bytes,
                oc.arg()
            ));
        }
        if self.megabyte != m.megabyte {
            v.push(DECIMAL_MEGABYTE.into());
        }
        v
    }
}

impl Default for Method {
    fn default() -> Self {
        Method::resolve(&Given::default())
    }
}

/// `-off_cache size[,line]`, as IMB 2021 reads it: the cache in MiB (a float), then its
/// line in bytes (64 if not given). A negative size alone is IMB 2021's default cache (8 MiB,
/// 64-byte lines: `-off_cache -1`); `0` leaves the buffers where they are. IMB 2021 takes
/// a negative size with a line size as "off" without saying so: refused here.
pub fn parse_off_cache(s: &str) -> Result<Option<OffCache>, String> {
    let (size, line) = match s.split_once(',') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (s.trim(), None),
    };
    let why = "expected <cache MiB>[,<line bytes>] (-1: 8 MiB, 64 B; 0: off)";
    let size: f64 = size.parse().map_err(|_| why.to_string())?;
    let line = match line {
        Some(l) => l
            .parse::<usize>()
            .ok()
            .filter(|&l| (1..=1 << 20).contains(&l))
            .ok_or_else(|| why.to_string())?,
        None => 64,
    };
    if size < 0.0 && s.contains(',') {
        return Err(format!(
            "{size}: a negative cache size takes no line size ({why})"
        ));
    }
    if size < 0.0 && size.is_finite() {
        return Ok(Some(OffCache {
            cache_bytes: 8 << 20,
            line_bytes: line,
        }));
    }
    if !size.is_finite() || !(0.0..=1024.0 * 1024.0).contains(&size) {
        return Err(why.into());
    }
    let cache_bytes = (size * 1048576.0) as usize;
    Ok((cache_bytes > 0).then_some(OffCache {
        cache_bytes,
        line_bytes: line,
    }))
}

/// Where one buffer's copies lie under `-off_cache`: repetition i uses the `len` bytes at
/// `(i % copies) · stride`. One copy at offset 0 without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotation {
    /// Bytes of one copy: what one repetition sends or receives.
    pub len: usize,
    pub stride: usize,
    pub copies: usize,
}

impl Rotation {
    pub const NONE: Rotation = Rotation {
        len: 0,
        stride: 0,
        copies: 1,
    };

    /// IMB 2021's layout for a buffer of `len` bytes and `n` repetitions: copies a whole
    /// number of cache lines apart (plus one line), as many as span twice the cache, at most
    /// n.
    pub fn new(off: Option<OffCache>, len: usize, n: usize) -> Rotation {
        let Some(oc) = off else {
            return Rotation {
                len,
                ..Rotation::NONE
            };
        };
        let cls = oc.line_bytes.max(1);
        let stride = (len.div_ceil(cls) + 1) * cls;
        let copies = (2 * oc.cache_bytes).div_ceil(stride).min(n).max(1);
        Rotation {
            len,
            stride,
            copies,
        }
    }
    /// Bytes the buffer needs.
    pub fn bytes(&self) -> usize {
        self.len.max(self.copies * self.stride)
    }
    /// Offset of repetition i's copy. Without copies no division: this runs in timed loops.
    #[inline(always)]
    pub fn offset(&self, i: usize) -> usize {
        if self.copies == 1 {
            0
        } else {
            (i % self.copies) * self.stride
        }
    }
}

/// The send and the receive buffer's copies of one size under `-off_cache` (IMB 2021's
/// s_offs, s_cache_iter, r_offs and r_cache_iter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rotations {
    pub send: Rotation,
    pub recv: Rotation,
}

impl Rotations {
    pub const NONE: Rotations = Rotations {
        send: Rotation::NONE,
        recv: Rotation::NONE,
    };

    /// Copies of `(send, receive)` bytes for `n` repetitions.
    pub fn new(off: Option<OffCache>, (slen, rlen): (usize, usize), n: usize) -> Rotations {
        Rotations {
            send: Rotation::new(off, slen, n),
            recv: Rotation::new(off, rlen, n),
        }
    }
    /// The (send, receive) bytes the buffers need.
    pub fn bytes(&self) -> (usize, usize) {
        (self.send.bytes(), self.recv.bytes())
    }
}

/// IMB 2021's `multiple_np` count for a size of `x` bytes on `np` processes: a hyperbola
/// from MSGSPERSAMPLE at 0 bytes falling with the size relative to the largest size
/// 2^`max_log`, rounded down to a multiple of np and at least np.
pub fn multiple_np(msgspersample: usize, max_log: u32, x: usize, np: usize) -> usize {
    let np = np.max(1);
    let init = x.max(4) as f64;
    let top = (1u64 << max_log.min(62)) as f64;
    let t = (msgspersample as f64 * top / (np as f64 * init + top) + 0.5) as usize;
    (t - t % np).max(np)
}

/// IMB 2021's dynamic policy, the part between its two probe loops: from the slowest rank's
/// time of one repetition, how many repetitions the second probe runs (about a second's
/// worth, at most `selected`).
pub fn dynamic_probe(t_one: f64, selected: usize) -> usize {
    let rep = if t_one < 1.0 / 1000.0 {
        1000
    } else if t_one < 1.0 {
        (1.0 / t_one + 0.5) as usize
    } else {
        1
    };
    selected.min(rep).max(1)
}

/// IMB 2021's dynamic policy, its verdict: the repetitions of `secs` seconds at `t` seconds a
/// repetition (the slowest rank's, from the second probe), at most `selected`, and never more
/// than a smaller size of the same table got nor fewer than a larger one (`earlier`: the
/// sizes measured before, with their counts). A time too small to divide keeps `selected`.
pub fn dynamic_count(
    t: f64,
    secs: f64,
    selected: usize,
    x: usize,
    earlier: &[(usize, usize)],
) -> usize {
    let val = (1.0 + secs / t) as f32;
    let mut n = if t > 1e-8 && val <= i32::MAX as f32 {
        val as usize
    } else {
        selected
    };
    for &(xe, ne) in earlier {
        n = if xe < x { n.min(ne) } else { n.max(ne) };
    }
    selected.min(n).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles() {
        let m = Method::default();
        assert_eq!(m, Method::IMB30);
        assert_eq!(m.timing, Timing::Loop);
        assert_eq!((m.roots(4), m.roots_or_zero(4)), (4, 1));
        assert_eq!(m.warm_up, WarmUp::Largest);
        assert_eq!(m.iter_policy, IterPolicy::Volume);
        assert_eq!(m.megabyte.0, 1048576.0);
        let v = Method::resolve(&Given {
            compat: Some(Compat::V2021),
            ..Given::default()
        });
        assert_eq!(v.timing, Timing::PerCall { sync: true });
        assert_eq!((v.roots(4), v.roots_or_zero(4)), (1, 1));
        assert_eq!(v.warm_up, WarmUp::EverySize);
        assert_eq!(v.iter_policy, IterPolicy::Dynamic);
        assert_eq!(v.megabyte.0, 1e6);

        // -sync alone asks for the per-call loop under 3.0's defaults.
        let s = Method::resolve(&Given {
            sync: Some(false),
            warm_up: Some(false),
            ..Given::default()
        });
        assert_eq!(s.timing, Timing::PerCall { sync: false });
        assert_eq!(s.warm_up, WarmUp::Off);
        let on = Method::resolve(&Given {
            compat: Some(Compat::V2021),
            root_shift: Some(true),
            ..Given::default()
        });
        assert_eq!((on.roots(4), on.roots_or_zero(4)), (4, 4));
    }

    #[test]
    fn off_cache_values() {
        assert_eq!(
            parse_off_cache("-1").unwrap(),
            Some(OffCache {
                cache_bytes: 8 << 20,
                line_bytes: 64
            })
        );
        assert_eq!(parse_off_cache("0").unwrap(), None);
        assert_eq!(
            parse_off_cache("2.5,128").unwrap(),
            Some(OffCache {
                cache_bytes: 5 << 19,
                line_bytes: 128
            })
        );
        let tiny = parse_off_cache("0.01").unwrap().unwrap();
        assert_eq!(
            (tiny.cache_bytes, tiny.arg()),
            (10485, "0.01,64".to_string())
        );
        assert_eq!(parse_off_cache("-1").unwrap().unwrap().arg(), "8,64");
        assert_eq!(
            parse_off_cache("2.5,128").unwrap().unwrap().arg(),
            "2.5,128"
        );
        // Any negative size alone is the default, as in IMB 2021.
        assert_eq!(parse_off_cache("-2"), parse_off_cache("-1"));
        for bad in ["", "x", "-1,128", "1,0", "1,x", "nan", "-inf", "1e300"] {
            assert!(parse_off_cache(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rotation_spans_twice_the_cache() {
        let oc = Some(OffCache {
            cache_bytes: 1 << 20,
            line_bytes: 64,
        });
        let r = Rotation::new(oc, 1000, 10_000);
        assert_eq!(r.stride, 1024 + 64);
        assert_eq!(r.copies, (2usize << 20).div_ceil(1088));
        assert_eq!(r.offset(r.copies + 1), r.stride);
        assert_eq!(r.bytes(), r.copies * 1088);
        // Never more copies than repetitions, never fewer than one.
        assert_eq!(Rotation::new(oc, 1000, 3).copies, 3);
        assert_eq!(Rotation::new(oc, 8 << 20, 1000).copies, 1);
        // A zero-byte message still moves a line on each repetition, as in IMB 2021.
        assert_eq!(Rotation::new(oc, 0, 1000).stride, 64);
        let none = Rotation::new(None, 1000, 1000);
        assert_eq!((none.copies, none.offset(7), none.bytes()), (1, 0, 1000));
        let both = Rotations::new(oc, (10, 100), 2);
        assert_eq!(both.bytes(), (2 * 128, 2 * 192));
        assert_eq!(Rotations::NONE.bytes(), (0, 0));
    }

    #[test]
    fn multiple_np_counts() {
        // IMB 2021's counts on 2 processes: 1000 at 0 B, 500 at 2 MiB, 332 at 4 MiB.
        assert_eq!(multiple_np(1000, 22, 2 << 20, 2), 500);
        assert_eq!(multiple_np(1000, 22, 0, 2), 1000);
        assert_eq!(multiple_np(1000, 22, 4, 3), 999);
        assert_eq!(multiple_np(1000, 22, 4 << 20, 2), 332);
        assert_eq!(multiple_np(1000, 22, 4 << 20, 4) % 4, 0);
        assert!(multiple_np(1, 22, 4 << 20, 8) == 8);
    }

    #[test]
    fn dynamic_rules() {
        assert_eq!(dynamic_probe(1e-7, 1000), 1000);
        assert_eq!(dynamic_probe(0.01, 1000), 100);
        assert_eq!(dynamic_probe(2.0, 1000), 1);
        assert_eq!(dynamic_probe(1e-7, 10), 10);
        // 10 s at 1 ms a repetition: 10001, capped by the volume rule's count.
        assert_eq!(dynamic_count(1e-3, 10.0, 640, 65536, &[]), 640);
        assert_eq!(dynamic_count(0.1, 10.0, 1000, 8, &[]), 101);
        // A larger size never gets more repetitions than a smaller one did.
        assert_eq!(dynamic_count(1e-6, 10.0, 1000, 16, &[(8, 300)]), 300);
        assert_eq!(dynamic_count(0.1, 10.0, 1000, 8, &[(16, 300)]), 300);
        assert_eq!(dynamic_count(0.0, 10.0, 1000, 8, &[]), 1000);
    }
}
