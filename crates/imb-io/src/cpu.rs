//! The CPU work IMB-IO overlaps with non-blocking I/O (3.0's `CPU_Exploit`): imb-core's
//! kernel (`imb_core::cpu_exploit`) at IMB 3.0's size, a 100×100 matrix (2·10^4 flops a pass),
//! calibrated over 3.0's 2501 passes. Unlike 3.0, the caller picks the number of passes for
//! each message size from the calibration (rounded, at least one).

use imb_core::cpu_exploit;

/// Matrix order of the kernel (3.0's value).
const N: usize = 100;
/// Passes of one calibration run (3.0's value).
const CALIBRATION_PASSES: usize = 2501;

/// The working set of IMB-IO's kernel.
pub type Work = cpu_exploit::Work<N>;

/// This process's speed on that kernel, measured once per run (tens of milliseconds).
pub type Calibration = cpu_exploit::Calibration<N, CALIBRATION_PASSES>;

/// IMB-IO's block before the first non-blocking table (3.0's, with its blank line): the
/// calibrated speed of CPU_Exploit, kept in `-json` under the kind `cpu_exploit`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Speed {
    pub mflops: f64,
}

impl imb_core::note::Remark for Speed {
    const KIND: &'static str = "cpu_exploit";
    fn lines(&self) -> Vec<String> {
        vec![
            "For nonblocking benchmarks:".to_string(),
            String::new(),
            "Function CPU_Exploit obtains an undisturbed".to_string(),
            format!("performance of {:7.2} MFlops", self.mflops),
        ]
    }
}

#[cfg(test)]
mod tests {
    use imb_core::note::Note;

    #[test]
    fn the_block_prints_as_imb_3_0_does() {
        let n = Note::of(&super::Speed { mflops: 808.114 });
        assert_eq!(
            n.lines(),
            [
                "For nonblocking benchmarks:",
                "",
                "Function CPU_Exploit obtains an undisturbed",
                "performance of  808.11 MFlops"
            ]
        );
        let v = serde_json::to_value(&n).unwrap();
        assert_eq!(v["kind"], "cpu_exploit");
        assert_eq!(v["mflops"], 808.114);
    }
}
