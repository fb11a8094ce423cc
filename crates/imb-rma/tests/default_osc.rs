//! `-multi` and one-process groups under the library's default one-sided component, with
//! `OMPI_MCA_osc` unset. Open MPI 4's osc/rdma let the windows of `-multi`'s groups collide
//! (doc/ReadMe_IMB.md, "Open MPI notes for imb-ext"): before `imb_onesided::apart`, nearly
//! every launch at np 4 failed in MPI_Win_create or hung. So many launches, each under the
//! watchdog, must all run to the end; and a group of one process, on which osc/rdma cannot
//! create a window, must end every rank with one line naming the remedy.

mod common;
use common::*;
use std::time::{Duration, Instant};

/// The default component is what these tests are about, whatever the caller's environment
/// selects. (Removing a variable races only with C code reading the environment; these tests
/// start processes, and std serialises its own environment accesses.)
fn default_osc() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::env::remove_var("OMPI_MCA_osc"));
}

/// Launches of each `-multi` form: at most this many, and no new one after `BUDGET` once each
/// form has had `AT_LEAST` (a loaded CI box gets fewer; the failure this guards against struck
/// nearly every launch).
const LAUNCHES: usize = 20;
const AT_LEAST: usize = 2;
const BUDGET: Duration = Duration::from_secs(15);

#[test]
fn multi_runs_to_the_end_every_time() {
    default_osc();
    let d = scratch("default-osc-multi");
    let start = Instant::now();
    let mut done = [0usize; 2];
    for i in 0..2 * LAUNCHES {
        if i >= 2 * AT_LEAST && start.elapsed() > BUDGET {
            break;
        }
        let multi = ["1", "0"][i % 2];
        let mut args = ALL.to_vec();
        args.extend(["-multi", multi, "-msglog", "0:2", "-iter", "10"]);
        let o = mpirun_in(&d, 4, &args, 60);
        ok(&o);
        assert!(
            o.stdout.contains("# Benchmarking Multi-All_put_all"),
            "-multi {multi}:\n{}",
            o.stdout
        );
        done[i % 2] += 1;
    }
    eprintln!(
        "imb-rma -multi 1 / -multi 0 at np 4: {} / {} launches in {:.0} s",
        done[0],
        done[1],
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn one_process_groups_end_together_with_one_line() {
    default_osc();
    let d = scratch("default-osc-np1");
    let tiny = ["-msglog", "0:2", "-iter", "10"];
    for (np, extra) in [(1, &[][..]), (4, &["-multi", "1", "-npmin", "1"][..])] {
        let mut args = extra.to_vec();
        args.extend(tiny);
        let o = mpirun_in(&d, np, &args, 60);
        if o.code == Some(0) {
            // A component that creates windows on one process (osc/ucx, MPICH).
            ok(&o);
            continue;
        }
        let errors: Vec<&str> = o
            .stderr
            .lines()
            .filter(|l| l.starts_with("imb-rma: error: "))
            .collect();
        assert_eq!(errors.len(), 1, "np {np} {args:?}:\n{}", o.stderr);
        assert!(
            errors[0].starts_with("imb-rma: error: Put_all_local: MPI_Win_create with no [info] hints (Open MPI's default one-sided component, osc/rdma, cannot create a window on one process: run with OMPI_MCA_osc=ucx, or pt2pt) failed: "),
            "{}",
            errors[0]
        );
        assert_eq!(o.code, Some(3), "{}", o.stderr);
    }
}
