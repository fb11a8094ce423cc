//! Does the harness cost anything on the MPI-IO path? One launch, two ranks:
//! 1. P_Write_Indv (AGGREGATE) of imb-io, prepared and timed exactly as imb-core's driver does
//!    it (`Benchmark::prepare` once, then per measurement `Benchmark::kernel`, which opens the
//!    file and sets the tiled view, and `Timed::run`), alternates with a raw-FFI loop of the same
//!    pattern on the same file and buffer (open, tiled view, N_BARR barriers, n × MPI_File_write,
//!    MPI_File_sync, close). The median of the paired ratios ours/raw is printed per size.
//! 2. S_IWrite_Indv on rank 0 alone at a large size: t_pure, t_CPU, t_ovrl and the overlap.
//!
//! Files go to a scratch directory under the system temporary directory and are removed.
//! Usage: `mpirun -np 2 io_overhead [PAIRS]` (default 60). Used by `scripts/bench-ext-io`.

use imb_core::bench::Mode;
use imb_core::buffers::Buffer;
use imb_core::kernel::{Benchmark, Comm, Ctx, Prep, Sample};
use imb_core::lengths::n_sample;
use imb_core::pairs::{self, Figure, Goal};
use imb_core::settings::Params;
use imb_core::stats::Usec;
use imb_core::table::OverlapTimes;
use imb_core::table::Wire;
use imb_core::values::Values;
use imb_io::cpu::Calibration;
use imb_io::options::{DIR, OVERWRITE};
use imb_io::overlap_pct;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::Color;
use mpi::traits::*;
use std::any::Any;
use std::ffi::CString;
use std::os::raw::{c_int, c_void};
use std::path::Path;

/// Sizes: 1 KiB (per-call cost dominates) and 1 MiB (bandwidth).
const SIZES: [usize; 2] = [1 << 10, 1 << 20];
const N_BARR: usize = 2;

fn check(rc: c_int) {
    assert_eq!(rc, ffi::MPI_SUCCESS as c_int, "MPI call failed");
}

fn bench(name: &str) -> &'static dyn Benchmark {
    *imb_io::BENCHMARKS
        .iter()
        .find(|b| b.info().name == name)
        .expect("registered")
}

/// Rank `k`'s portion of X (4-byte units dealt in rank order, clipped to X): IMB's rule.
fn portion(x: usize, k: usize, n: usize) -> (usize, usize) {
    let (units, n) = (x.div_ceil(4), n.max(1));
    let (b, r) = (units / n, units % n);
    let u0 = if k < r { k * (b + 1) } else { k * b + r };
    let u1 = if k < r { u0 + b + 1 } else { u0 + b };
    let (s, e) = ((4 * u0).min(x), (4 * u1).min(x));
    (s, e - s)
}

/// P_Write_Indv AGGREGATE with nothing around it. Returns seconds per access.
fn raw_write_indv(comm: &Comm, path: &Path, s: &[u8], x: usize, n: usize) -> f64 {
    let (off, len) = portion(x, comm.rank() as usize, comm.size() as usize);
    let name = CString::new(path.to_str().expect("utf-8 path")).expect("no NUL");
    // SAFETY: reading rsmpi's extern statics; the file is opened, viewed, written from s
    // (len <= X <= s.len() bytes, only read), synced and closed within this call; the
    // datatypes are freed after the view that uses them is gone (the file is closed first).
    unsafe {
        let (byte, info) = (ffi::RSMPI_UINT8_T, ffi::RSMPI_INFO_NULL);
        let mut fh = ffi::RSMPI_FILE_NULL;
        let amode = (ffi::MPI_MODE_CREATE | ffi::MPI_MODE_RDWR) as c_int;
        check(ffi::MPI_File_open(
            comm.as_raw(),
            name.as_ptr(),
            amode,
            info,
            &mut fh,
        ));
        let (mut block, mut tiled) = (byte, byte);
        let lens = [len as c_int];
        let disps = [off as ffi::MPI_Aint];
        check(ffi::MPI_Type_create_hindexed(
            1,
            lens.as_ptr(),
            disps.as_ptr(),
            byte,
            &mut block,
        ));
        check(ffi::MPI_Type_create_resized(
            block,
            0,
            x as ffi::MPI_Aint,
            &mut tiled,
        ));
        check(ffi::MPI_Type_commit(&mut tiled));
        check(ffi::MPI_File_set_view(
            fh,
            0,
            byte,
            tiled,
            c"native".as_ptr(),
            info,
        ));
        for _ in 0..N_BARR {
            check(ffi::MPI_Barrier(comm.as_raw()));
        }
        let t0 = ffi::MPI_Wtime();
        for _ in 0..n {
            check(ffi::MPI_File_write(
                fh,
                s.as_ptr() as *const c_void,
                len as c_int,
                byte,
                ffi::RSMPI_STATUS_IGNORE,
            ));
        }
        check(ffi::MPI_File_sync(fh));
        let t = (ffi::MPI_Wtime() - t0) / n as f64;
        check(ffi::MPI_File_close(&mut fh));
        check(ffi::MPI_Type_free(&mut tiled));
        check(ffi::MPI_Type_free(&mut block));
        t
    }
}

struct Env<'a> {
    comm: &'a Comm,
    params: &'a Params,
    /// `-dir` and `-overwrite` as the engine hands them to `Benchmark::prepare`.
    family: &'a Values,
    cpu: Option<&'a Calibration>,
}

fn prepare(e: &Env, b: &dyn Benchmark, volume: usize) -> Option<Box<dyn Any>> {
    b.prepare(&Prep {
        comm: e.comm,
        rank: e.comm.rank() as usize,
        size: e.comm.size() as usize,
        world_rank: mpi::topology::SimpleCommunicator::world().rank() as usize,
        group: None,
        groups: 1,
        volume,
        params: e.params,
        info: &[],
        family: e.family,
    })
    .expect("prepare")
}

/// One measurement through the harness (t_ovrl or t in seconds, and the kernel's record).
fn ours(
    e: &Env,
    b: &dyn Benchmark,
    prep: &dyn Any,
    x: usize,
    n: usize,
    bufs: &mut (Buffer, Buffer),
) -> Sample<Wire> {
    let mut k = b.kernel(Ctx {
        comm: e.comm,
        rank: e.comm.rank() as usize,
        size: e.comm.size() as usize,
        x,
        mode: Mode::Aggregate,
        send: bufs.0.bytes(),
        recv: bufs.1.bytes_mut(),
        params: e.params,
        method: &imb_core::method::Method::IMB30,
        rot: imb_core::method::Rotations::NONE,
        info: &[],
        prep: Some(prep),
        run: e.cpu.map(|c| c as &dyn Any),
    });
    k.run(e.comm, imb_core::kernel::Loop::imb30(N_BARR), n, false)
}

fn main() {
    let ex = pairs::start(60, None, &imb_io::options::SETTINGS);
    let (world, pairs, params) = (&ex.world, ex.pairs, &ex.params);
    let me = world.rank();
    let dir = std::env::temp_dir().join("imb-rs-bench-io");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let base = dir.join("IMB_out");
    let mut family = Values::default();
    DIR.set(&mut family, dir.to_string_lossy().into_owned());
    OVERWRITE.set(&mut family, true);
    let mut bufs = (
        Buffer::new(params.overall_vol).expect("buffer"),
        Buffer::new(params.overall_vol).expect("buffer"),
    );
    bufs.0.fill_io(me as usize);
    let env = Env {
        comm: world,
        params,
        family: &family,
        cpu: None,
    };

    let pw = bench("P_Write_Indv");
    let prep = prepare(&env, pw, params.overall_vol).expect("a prepared file");
    let path = base.clone();
    for x in SIZES {
        let n = n_sample(x, params.msgspersample, params.overall_vol);
        // The slowest rank decides a collective I/O time, as in the tables.
        let p = pairs::alternate(
            world,
            pairs,
            Figure::Slowest,
            &mut bufs,
            |b| ours(&env, pw, prep.as_ref(), x, n, b).secs,
            |b| raw_write_indv(world, &path, b.0.bytes(), x, n),
        );
        let s = p.summary(Goal::Latency, |t| t * 1e6);
        if me == 0 {
            println!(
                "P_Write_Indv {x:>8} B x {n:>2}, NP 2: ours {:9.2} us  raw {:9.2} us  median ratio ours/raw {:.3}  ({pairs} pairs)",
                s.ours, s.raw, s.ratio
            );
        }
    }
    drop(prep);
    world.barrier();

    // S_IWrite_Indv on rank 0 alone (as the driver runs S_ benchmarks): one large size.
    let color = if me == 0 {
        Color::with_value(0)
    } else {
        Color::undefined()
    };
    if let Some(solo) = world.split_by_color(color) {
        let cal = Calibration::measure();
        let env = Env {
            comm: &solo,
            params,
            family: &family,
            cpu: Some(&cal),
        };
        let sw = bench("S_IWrite_Indv");
        let x = 4 << 20;
        let n = n_sample(x, params.msgspersample, params.overall_vol);
        let prep = prepare(&env, sw, params.overall_vol).expect("a prepared file");
        println!("CPU_Exploit: {:.2} MFlops", cal.mflops);
        for _ in 0..3 {
            let s = ours(&env, sw, prep.as_ref(), x, n, &mut bufs);
            let (ovrl, t) = (s.secs, s.rec.decode::<OverlapTimes>());
            let (pure, cpu) = (t.pure, t.cpu);
            let o = overlap_pct(Usec(ovrl * 1e6), Usec(pure * 1e6), Usec(cpu * 1e6));
            println!(
                "S_IWrite_Indv {x} B x {n}: t_pure {:9.2} us  t_CPU {:9.2} us  t_ovrl {:9.2} us  overlap {o:6.2} %",
                pure * 1e6,
                cpu * 1e6,
                ovrl * 1e6
            );
        }
    }
    world.barrier();
    if me == 0 {
        let _ = std::fs::remove_dir(&dir);
    }
}
