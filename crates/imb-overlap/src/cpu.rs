//! The CPU work IMB-NBC overlaps with a non-blocking collective (IMB 2021's `CPU_Exploit`):
//! imb-core's kernel (`imb_core::cpu_exploit`) at IMB 2021's size.
//!
//! The overlap question is how much of a collective's time a process can spend computing, so
//! the work must last about as long as the collective alone (t_pure), which for small messages
//! is well under a microsecond. As in IMB 2021 a pass is therefore tiny: a 10×10 matrix times a
//! 10-vector, 200 flops, calibrated once per process over 50 Mflop (IMB 2021's amount). Like
//! IMB 2021 the work does not test the request while computing, so the overlap shows what the
//! MPI library progresses on its own (doc/METHODOLOGY.md, "imb-nbc"). `-compat 2021` uses
//! IMB 2021's own kernel and calibration instead (`cpu2021`).

use imb_core::cpu_exploit;

/// Matrix order of the kernel (IMB 2021's value).
const N: usize = 10;
/// Passes of one calibration run: 50 Mflop, as IMB 2021.
const CALIBRATION_PASSES: usize = 50_000_000 / (2 * N * N) + 1;

/// The working set of IMB-NBC's kernel.
pub type Work = cpu_exploit::Work<N>;

/// This process's speed on that kernel, measured once per run (tens of milliseconds).
pub type Calibration = cpu_exploit::Calibration<N, CALIBRATION_PASSES>;

/// One overlap kernel's CPU work under the default profile: the run's calibration and a
/// working set of its own.
pub struct Cpu {
    pub cal: Calibration,
    pub work: Work,
}
