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
