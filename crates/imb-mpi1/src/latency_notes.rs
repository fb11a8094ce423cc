//! The Sphinx latencies' notes after a table: the slowest rank of each size, and a rank whose
//! corrected time is not positive (doc/METHODOLOGY.md, "Sphinx latencies"). Their own types,
//! printed and kept in `-json` through `imb_core::note::Remark`.

use imb_core::note::Remark;
use serde::Serialize;

/// The slowest rank of a size (`label`: "last receiver", "critical contributor"), its rank in
/// its group and the group under Multi.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Slowest {
    pub bytes: usize,
    pub label: String,
    pub rank: usize,
    pub group: Option<usize>,
    pub t_us: f64,
}

/// A rank whose corrected time is not positive: the row's figure is not a result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unreliable {
    pub bytes: usize,
    pub rank: usize,
    pub group: Option<usize>,
    pub t_us: f64,
}

fn in_group(g: Option<usize>) -> String {
    g.map(|g| format!(" of group {g}")).unwrap_or_default()
}

impl Remark for Slowest {
    const KIND: &'static str = "slowest";
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "{} bytes: {}: rank {}{} ({:.2} usec)",
            self.bytes,
            self.label,
            self.rank,
            in_group(self.group),
            self.t_us
        )]
    }
}

impl Remark for Unreliable {
    const KIND: &'static str = "unreliable";
    fn lines(&self) -> Vec<String> {
        vec![format!(
            "{} bytes: UNRELIABLE: rank {}{}: corrected time {:.2} usec <= 0 (the \
             acknowledgement latency is not below the measured time)",
            self.bytes,
            self.rank,
            in_group(self.group),
            self.t_us
        )]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imb_core::note::Note;

    #[test]
    fn printed_and_kept_as_before() {
        let n = Note::of(&Slowest {
            bytes: 4,
            label: "last receiver".into(),
            rank: 3,
            group: Some(1),
            t_us: 2.5,
        });
        assert_eq!(
            n.lines(),
            ["4 bytes: last receiver: rank 3 of group 1 (2.50 usec)"]
        );
        let v = serde_json::to_value(&n).unwrap();
        assert_eq!(v["kind"], "slowest");
        assert_eq!(v["rank"], 3);
        assert_eq!(v["t_us"], 2.5);
        let n = Note::of(&Unreliable {
            bytes: 8,
            rank: 2,
            group: None,
            t_us: -0.5,
        });
        assert_eq!(
            n.lines(),
            [
                "8 bytes: UNRELIABLE: rank 2: corrected time -0.50 usec <= 0 (the acknowledgement \
              latency is not below the measured time)"
            ]
        );
        assert_eq!(
            serde_json::to_value(&n).unwrap()["group"],
            serde_json::Value::Null
        );
    }
}
