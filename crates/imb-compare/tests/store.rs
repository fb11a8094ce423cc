//! The results store as a user meets it, on real SQLite files: store add, list, show, accept
//! and rm, stored runs chosen by selectors in a comparison, and the faults a store must
//! survive (two writers at once, a writer killed mid-add, a full disk, a file at the path that
//! is not a store, a store from a newer imb-compare). Nothing here judges a timing.

use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus");

/// A scratch directory, removed however the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("imb-compare-store-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_imb-compare"));
    c.args(args)
        .env_remove("IMB_RS_DB")
        .env_remove("IMB_RS_SYSTEM")
        .stdin(Stdio::null());
    c
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = cmd(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// An imb-rs text launch started at `second` past 10:00 on day `day` of May 2026: PingPong at
/// `rows` sizes (0, 1, 2, ...), each time `t` plus a little per size.
fn launch(day: u32, second: u32, t: f64, rows: usize) -> String {
    let mut s = format!(
        "#------------------------------------------------------------\n\
         #    imb-rs 0.1.0, MPI-1 part\n\
         #------------------------------------------------------------\n\
         # Date                  : Fri May {day:2} 10:{:02}:{:02} 2026\n\
         # MPI Thread Environment: MPI_THREAD_SINGLE\n\
         \n\
         # Benchmarking PingPong \n\
         # #processes = 2 \n\
         #------------------------------------------------------------\n\
         \x20      #bytes #repetitions      t[usec]   Mbytes/sec\n",
        second / 60,
        second % 60
    );
    for b in 0..rows {
        let tb = t + 0.001 * b as f64;
        s.push_str(&format!(
            "{b:13} {:12} {tb:12.2} {:12.2}\n",
            1000,
            b as f64 / tb
        ));
    }
    s.push_str("\n\n# All processes entering MPI_Finalize\n");
    s
}

/// A run directory of `n` launches with PingPong times around `t`.
fn run_dir(parent: &Path, name: &str, day: u32, t: f64, n: usize, rows: usize) -> String {
    let d = parent.join(name);
    std::fs::create_dir_all(&d).unwrap();
    for k in 0..n {
        // A little launch-to-launch noise, the same pattern in every run.
        let noise = [0.0, 0.02, -0.01, 0.01, -0.02, 0.03, -0.03][k % 7];
        std::fs::write(
            d.join(format!("{}.txt", k + 1)),
            launch(day, k as u32, t + noise, rows),
        )
        .unwrap();
    }
    s(&d).to_string()
}

fn integrity(db: &str) -> String {
    let c = Connection::open(db).unwrap();
    c.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap()
}

fn count(db: &str, sql: &str) -> i64 {
    let c = Connection::open(db).unwrap();
    c.query_row(sql, [], |r| r.get(0)).unwrap()
}

#[test]
fn add_list_show_accept_select_and_remove() {
    let d = scratch("flow");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let base = run_dir(&d, "base", 1, 1.0, 5, 3);
    let new = run_dir(&d, "new", 2, 1.5, 5, 3);
    let (code, out, err) = run(&[
        "store", "add", "--db", db, "--system", "vm", "--label", "may", "--tag", "ompi", &base,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!("{base}: run 1 added, 5 launch(es) from 5 file(s)\n")
    );
    // The same launches again: stored once.
    let (code, out, _) = run(&["store", "add", "--db", db, "--system", "vm", &base]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        format!("{base}: nothing new, no run added; 5 file(s) already stored (run 1)\n")
    );
    assert_eq!(count(db, "SELECT count(*) FROM files"), 5);
    // Text from IMB 3.0 and OSU: no provenance, stored as unknown.
    let osu = format!("{CORPUS}/imbtext/osu-7.4-latency.txt");
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "other", &osu]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, _) = run(&["store", "list", "--db", db]);
    assert_eq!(code, Some(0));
    assert!(out.contains("2 run(s) of 2 system(s)"), "{out}");
    let vm = out.lines().find(|l| l.contains(" vm ")).unwrap();
    assert!(
        vm.contains("2026-05-01 10:00:00") && vm.contains("may") && vm.contains("ompi"),
        "{out}"
    );
    let other = out.lines().find(|l| l.contains(" other ")).unwrap();
    assert!(
        other.contains("OSU 7.4") && other.contains("unknown"),
        "{out}"
    );
    let (code, out, _) = run(&["store", "show", "--db", db, "1"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.matches("\nlaunch ").count(), 5, "{out}");

    // No baseline accepted yet: a clear error, status 2.
    let (code, out, err) = run(&["--db", db, "--system", "vm", "@accepted", &new]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert!(
        err.contains("@accepted: no accepted baseline of system vm"),
        "{err}"
    );
    let (code, out, _) = run(&["store", "accept", "--db", db, "--system", "vm", "@latest"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out,
        "run 1 (vm, may, 2026-05-01) is now the accepted baseline of vm\n"
    );

    // A stored baseline is judged exactly as its files: the same report, the label aside.
    let (code, stored, err) = run(&["--db", db, "@accepted", &new]);
    assert_eq!(code, Some(0), "{err}");
    let (_, disk, _) = run(&[&base, &new]);
    assert_eq!(stored.replace("@accepted (run 1)", "base"), disk);
    assert!(
        stored.contains("6 worse") || stored.contains("worse"),
        "{stored}"
    );
    // With criteria: the baseline named by selector.
    let refs = d.join("acceptance.toml");
    std::fs::write(
        &refs,
        "[[criterion]]\nbenchmark = \"PingPong\"\nmetric = \"t\"\nreference = \"baseline\"\nupper = 0.10\n",
    )
    .unwrap();
    // Text launches: no MPI library and no placement recorded, accepted by name.
    let (code, out, err) = run(&[
        "--db",
        db,
        "--accept-unrecorded=mpi,placement,binding",
        "--references",
        s(&refs),
        "@accepted",
        &new,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAIL"), "{out}");
    // The stored run against its own files: no evidence, bad input naming the launches.
    let (code, _, err) = run(&["--db", db, "--references", s(&refs), "@accepted", &base]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("shares launches with the baseline @accepted (run 1)"),
        "{err}"
    );
    // Selectors in agreement, and by label and date.
    let (code, _, err) = run(&["agreement", "--db", db, "@may", &new]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, _) = run(&["store", "list", "--db", db, "@2026-05-01..2026-05-01"]);
    assert_eq!(code, Some(0));
    assert!(out.contains("1 run(s) of 1 system(s)"), "{out}");
    // Ambiguous: runs of two systems.
    let (code, _, err) = run(&["--db", db, "@latest", &new]);
    assert_eq!(code, Some(2));
    assert!(err.contains("runs of 2 systems (other, vm)"), "{err}");

    let (code, out, _) = run(&["store", "rm", "--db", db, "1"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("removed run 1") && out.contains("it has none now"),
        "{out}"
    );
    let (code, _, err) = run(&["store", "rm", "--db", db, "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("no run 1: nothing removed"), "{err}");
    assert_eq!(count(db, "SELECT count(*) FROM files"), 1);
    assert_eq!(integrity(db), "ok");
}

#[test]
fn usage_errors_of_the_store_are_one_line_status_2() {
    let d = scratch("usage");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let base = run_dir(&d, "base", 1, 1.0, 1, 3);
    for (args, says) in [
        (vec!["store", "add", "--db", db, &base], "name the system"),
        (
            vec!["store", "add", "--db", db, "--system", "a,b", &base],
            "a name has no",
        ),
        (vec!["store", "list", "--db", db], "no results store here"),
        (vec!["--db", db, "@", &base], "an empty selector"),
        (
            vec!["store", "show", "--db", db, "x"],
            "no results store here",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Reading commands made no store.
    assert!(!Path::new(db).exists());
}

#[test]
fn two_writers_at_once_both_land() {
    let d = scratch("writers");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let mut a = vec!["store", "add", "--db", db, "--system", "vm"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    let mut b = a.clone();
    for k in 0..12 {
        a.push(run_dir(&d, &format!("a{k}"), 1 + k as u32, 1.0, 3, 40));
        b.push(run_dir(&d, &format!("b{k}"), 15 + k as u32, 2.0, 3, 40));
    }
    let spawn = |args: &Vec<String>| {
        cmd(&args.iter().map(String::as_str).collect::<Vec<_>>())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    // Both start before either has made the store: they also race to create it.
    let (pa, pb) = (spawn(&a), spawn(&b));
    let (oa, ob) = (
        pa.wait_with_output().unwrap(),
        pb.wait_with_output().unwrap(),
    );
    for o in [&oa, &ob] {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 12);
    }
    assert_eq!(count(db, "SELECT count(*) FROM runs"), 24);
    assert_eq!(count(db, "SELECT count(*) FROM launches"), 72);
    assert_eq!(integrity(db), "ok");
    // Nothing was left beside the store.
    let left: Vec<String> = std::fs::read_dir(&*d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_writer_killed_mid_add_leaves_every_run_whole() {
    use std::os::unix::process::ExitStatusExt;
    let d = scratch("killed");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let first = run_dir(&d, "first", 1, 1.0, 5, 10);
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &first]);
    assert_eq!(code, Some(0), "{err}");
    let before: Vec<String> = {
        let c = Connection::open(db).unwrap();
        let mut q = c.prepare("SELECT sha256 FROM files ORDER BY id").unwrap();
        q.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    // A big run: 100 launches of 10,000 sizes (about 0.5 MB each), one transaction.
    let launches = 100;
    let big = run_dir(&d, "big", 2, 1.0, launches, 10_000);
    let wal = format!("{db}-wal");
    let mut killed_mid_add = false;
    for attempt in 0..3 {
        let mut child = cmd(&["store", "add", "--db", db, "--system", "vm", &big])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the transaction has written a good part of the run into the log, then
        // kill it; a writer that finishes first is fine too (the run is then whole).
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 10 << 20) {
                child.kill().unwrap();
                break child.wait().unwrap();
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        };
        killed_mid_add |= status.signal() == Some(9);
        println!(
            "attempt {attempt}: {}",
            if status.signal() == Some(9) {
                "killed"
            } else {
                "finished"
            }
        );
        // The store opens, is whole, and the run is all there or not at all.
        assert_eq!(integrity(db), "ok", "attempt {attempt}");
        let (code, out, err) = run(&["store", "list", "--db", db]);
        assert_eq!(code, Some(0), "{err}");
        let runs = count(db, "SELECT count(*) FROM runs");
        let big_launches = count(db, "SELECT count(*) FROM launches WHERE run <> 1");
        let big_files = count(
            db,
            "SELECT count(*) FROM files f JOIN launches l ON l.id = f.launch WHERE l.run <> 1",
        );
        assert!(
            (runs, big_launches, big_files) == (1, 0, 0)
                || (runs, big_launches, big_files) == (2, launches as i64, launches as i64),
            "attempt {attempt}: {runs} runs, {big_launches} launches: {out}"
        );
        assert_eq!(count(db, "SELECT count(*) FROM launches WHERE run = 1"), 5);
        println!(
            "attempt {attempt}: the big run is {}",
            if runs == 2 { "whole" } else { "absent" }
        );
        if runs == 2 {
            break;
        }
    }
    let after: Vec<String> = {
        let c = Connection::open(db).unwrap();
        let mut q = c
            .prepare("SELECT f.sha256 FROM files f JOIN launches l ON l.id = f.launch WHERE l.run = 1 ORDER BY f.id")
            .unwrap();
        q.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    assert_eq!(before, after);
    if !killed_mid_add {
        println!(
            "note: every writer finished before it could be killed; consistency still checked"
        );
    }
}

#[test]
fn a_full_disk_keeps_what_was_stored() {
    let Some(disk) = imb_testkit::SmallDisk::new("imb-compare-store-full", "1m") else {
        println!("skipped: cannot mount a small tmpfs here (not root?)");
        return;
    };
    let d = scratch("full");
    let db = disk.0.join("results.sqlite");
    let db = s(&db);
    let small = run_dir(&d, "small", 1, 1.0, 3, 10);
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &small]);
    assert_eq!(code, Some(0), "{err}");
    // 30 launches of about 50 KB: more than the disk holds. A small run named before it in
    // the same command is not kept either: the command's error says nothing of it was.
    let big = run_dir(&d, "big", 2, 1.0, 30, 1000);
    let before = run_dir(&d, "before", 3, 1.0, 2, 10);
    let (code, out, err) = run(&["store", "add", "--db", db, "--system", "vm", &before, &big]);
    assert_eq!((code, out.as_str()), (Some(3), ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the disk is full") && err.contains("nothing of this command was kept"),
        "{err}"
    );
    let (code, out, err) = run(&["store", "list", "--db", db]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("1 run(s)"), "{out}");
    assert_eq!(integrity(db), "ok");
    assert_eq!(count(db, "SELECT count(*) FROM launches"), 3);

    // A store that cannot even be made leaves nothing behind.
    let filler = disk.0.join("filler");
    let free = {
        let v = nix::sys::statvfs::statvfs(&disk.0).unwrap();
        v.blocks_available() as u64 * v.fragment_size() as u64
    };
    std::fs::write(&filler, vec![b'x'; free as usize]).unwrap();
    let other = disk.0.join("other.sqlite");
    let (code, _, err) = run(&["store", "add", "--db", s(&other), "--system", "vm", &small]);
    assert_eq!(code, Some(3), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&disk.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["filler", "results.sqlite"], "{err}");
}

#[test]
fn a_file_that_is_not_our_store_is_refused_and_left_alone() {
    let d = scratch("foreign");
    let run1 = run_dir(&d, "r", 1, 1.0, 2, 5);
    let db = d.join("results.sqlite");
    let db = s(&db);
    // A launch file named as the store by mistake.
    std::fs::copy(format!("{run1}/1.txt"), db).unwrap();
    let before = std::fs::read(db).unwrap();
    for args in [
        vec!["store", "add", "--db", db, "--system", "vm", &run1],
        vec!["store", "list", "--db", db],
        vec!["--db", db, "@latest", &run1],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("not a results store (not an SQLite database): left as it is"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(db).unwrap(), before);

    // A store damaged on disk: every page after the first (the header and the schema)
    // overwritten.
    std::fs::remove_file(db).unwrap();
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &run1]);
    assert_eq!(code, Some(0), "{err}");
    let mut bytes = std::fs::read(db).unwrap();
    let page = 4096;
    assert!(bytes.len() >= 4 * page);
    for b in &mut bytes[page..] {
        *b = 0x5a;
    }
    std::fs::write(db, &bytes).unwrap();
    let other = run_dir(&d, "o", 3, 1.0, 2, 5);
    for args in [
        vec!["store", "list", "--db", db],
        vec!["store", "add", "--db", db, "--system", "vm", &other],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("left as it is"), "{err}");
    }
    assert_eq!(std::fs::read(db).unwrap(), bytes);

    // A store of a newer schema.
    std::fs::remove_file(db).unwrap();
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &run1]);
    assert_eq!(code, Some(0), "{err}");
    Connection::open(db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let before = std::fs::read(db).unwrap();
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &other]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("schema version 99, written by a newer imb-compare"),
        "{err}"
    );
    assert_eq!(std::fs::read(db).unwrap(), before);
}

#[test]
fn a_trend_marks_the_step_and_nothing_else() {
    let d = scratch("trend");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let mut args: Vec<String> = ["store", "add", "--db", db, "--system", "vm"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    // Four runs at 1.0 us, three at 1.5 us, then one run of a single launch far off.
    for day in 1..=4 {
        args.push(run_dir(&d, &format!("r{day}"), day, 1.0, 5, 3));
    }
    for day in 5..=7 {
        args.push(run_dir(&d, &format!("r{day}"), day, 1.5, 5, 3));
    }
    args.push(run_dir(&d, "r8", 8, 3.0, 1, 3));
    let (code, _, err) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(&["trend", "--db", db, "PingPong", "--bytes", "0"]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 9, "{out}");
    assert!(lines[1].ends_with("first"), "{out}");
    let changed: Vec<&str> = lines
        .iter()
        .filter(|l| l.contains("CHANGE"))
        .copied()
        .collect();
    assert_eq!(changed.len(), 1, "{out}");
    assert!(
        changed[0].trim_start().starts_with("5  2026-05-05")
            && changed[0].contains("CHANGE worse x1.5"),
        "{out}"
    );
    assert!(lines[8].ends_with("undecided (too few launches)"), "{out}");
    assert!(out.ends_with("# 8 run(s), 1 change point(s)\n"), "{out}");
    // Mbytes/sec at 2 bytes falls as the time rises: worse too, a ratio below 1.
    let (code, out, _) = run(&[
        "trend", "--db", db, "PingPong", "--bytes", "2", "--metric", "mbytes",
    ]);
    assert_eq!(code, Some(0));
    assert!(out.contains("CHANGE worse x0.665"), "{out}");
    // The plot: an SVG with one red cross (the change point) and an index.html.
    let plots = d.join("plots");
    let (code, out, err) = run(&[
        "trend",
        "--db",
        db,
        "PingPong",
        "--bytes",
        "0",
        "--plot",
        s(&plots),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.ends_with(&format!("and index.html in {}\n", s(&plots))),
        "{out}"
    );
    let svg = std::fs::read_to_string(plots.join("trend-PingPong-np2-0.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("change point"),
        "{svg}"
    );
    assert!(std::fs::read_to_string(plots.join("index.html"))
        .unwrap()
        .contains("CHANGE worse"));
    // A run without the benchmark is counted, not read.
    let osu = format!("{CORPUS}/imbtext/osu-7.4-latency.txt");
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &osu]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, _) = run(&["trend", "--db", db, "PingPong", "--bytes", "0"]);
    assert_eq!(code, Some(0));
    assert!(
        out.ends_with(
            "# 8 run(s), 1 change point(s); 1 run(s) without this figure: 9 (no PingPong, 2 processes)\n"
        ),
        "{out}"
    );
    // A size no run has: one line, status 2.
    let (code, _, err) = run(&["trend", "--db", db, "PingPong", "--bytes", "7"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("no stored run has PingPong at 7 bytes"),
        "{err}"
    );
}

/// The numbers of `store list`'s runs, in its order.
fn listed(db: &str) -> Vec<i64> {
    let (code, out, err) = run(&["store", "list", "--db", db]);
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .skip(2)
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn run_numbers_are_never_given_again() {
    let d = scratch("numbers");
    let db = d.join("results.sqlite");
    let db = s(&db);
    for day in 1..=3 {
        let r = run_dir(&d, &format!("r{day}"), day, 1.0, 2, 3);
        let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &r]);
        assert_eq!(code, Some(0), "{err}");
    }
    // The newest run removed: a report that named "run 3" must never name another run.
    let (code, _, err) = run(&["store", "rm", "--db", db, "3"]);
    assert_eq!(code, Some(0), "{err}");
    let r4 = run_dir(&d, "r4", 4, 1.0, 2, 3);
    let (code, out, err) = run(&["store", "add", "--db", db, "--system", "vm", &r4]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out,
        format!("{r4}: run 4 added, 2 launch(es) from 2 file(s)\n")
    );
    // Every run removed: still no number again.
    let (code, _, err) = run(&["store", "rm", "--db", db, "1", "2", "4"]);
    assert_eq!(code, Some(0), "{err}");
    let r5 = run_dir(&d, "r5", 5, 1.0, 2, 3);
    let (code, out, _) = run(&["store", "add", "--db", db, "--system", "vm", &r5]);
    assert_eq!(code, Some(0));
    assert!(out.contains(": run 5 added"), "{out}");
    assert_eq!(listed(db), [5]);
    assert_eq!(integrity(db), "ok");
}

#[test]
fn a_store_of_schema_1_is_migrated_and_keeps_its_numbers() {
    use imb_compare::store::schema::{APPLICATION_ID, MIGRATIONS};
    let d = scratch("schema1");
    // Three runs added by this imb-compare, then copied row for row into a store made by
    // schema 1's statements alone: what an older imb-compare left on disk.
    let now = d.join("now.sqlite");
    for day in 1..=3 {
        let r = run_dir(&d, &format!("r{day}"), day, 1.0, 2, 3);
        let (code, _, err) = run(&["store", "add", "--db", s(&now), "--system", "vm", &r]);
        assert_eq!(code, Some(0), "{err}");
    }
    let (code, _, err) = run(&["store", "accept", "--db", s(&now), "2"]);
    assert_eq!(code, Some(0), "{err}");
    let old = d.join("old.sqlite");
    let db = s(&old);
    {
        let c = Connection::open(db).unwrap();
        c.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        let _: String = c
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .unwrap();
        c.execute_batch(MIGRATIONS[0]).unwrap();
        c.pragma_update(None, "user_version", 1).unwrap();
        c.execute("ATTACH DATABASE ?1 AS now", [s(&now)]).unwrap();
        for t in ["runs", "tags", "launches", "files", "accepted"] {
            c.execute_batch(&format!("INSERT INTO {t} SELECT * FROM now.{t}"))
                .unwrap();
        }
    }
    let version = |db: &str| count(db, "PRAGMA user_version");
    assert_eq!(version(db), 1);
    // Reading commands read it as it is (they open it read-only)...
    let (code, out, err) = run(&["store", "list", "--db", db]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(version(db), 1);
    assert_eq!(listed(db), [1, 2, 3]);
    assert!(out.lines().nth(3).unwrap().ends_with("[accepted]"), "{out}");
    let (code, out, _) = run(&["store", "show", "--db", db, "3"]);
    assert_eq!(code, Some(0));
    assert_eq!(out.matches("\nlaunch ").count(), 2, "{out}");
    // ...and the first write migrates it; the runs, their numbers, launches and baseline stay.
    // Schema 1 gave the newest run's number again after store rm; schema 2 does not.
    let (code, _, err) = run(&["store", "rm", "--db", db, "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(version(db), 2);
    assert_eq!(listed(db), [1, 2]);
    let r4 = run_dir(&d, "r4", 4, 1.0, 2, 3);
    let (code, out, err) = run(&["store", "add", "--db", db, "--system", "vm", &r4]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(": run 4 added"), "{out}");
    assert_eq!(integrity(db), "ok");
}

/// [`launch`] with a Barrier table after PingPong: a table whose rows have no #bytes.
fn launch_with_barrier(day: u32, second: u32, t: f64) -> String {
    launch(day, second, t, 3).replace(
        "\n\n# All processes entering MPI_Finalize\n",
        &format!(
            "\n#---------------------------------------------------\n\
             # Benchmarking Barrier \n\
             # #processes = 2 \n\
             #---------------------------------------------------\n\
             \x20#repetitions  t_min[usec]  t_max[usec]  t_avg[usec]\n\
             \x20         1000 {:12.2} {:12.2} {:12.2}\n\
             \n\n# All processes entering MPI_Finalize\n",
            2.0 * t,
            2.2 * t,
            2.1 * t
        ),
    )
}

#[test]
fn a_trend_of_a_sizeless_table_takes_no_bytes() {
    let d = scratch("sizeless");
    let db = d.join("results.sqlite");
    let db = s(&db);
    for day in 1..=3 {
        let r = d.join(format!("r{day}"));
        std::fs::create_dir_all(&r).unwrap();
        for k in 0..5u32 {
            let t = 1.0 + 0.01 * k as f64;
            std::fs::write(
                r.join(format!("{}.txt", k + 1)),
                launch_with_barrier(day, k, t),
            )
            .unwrap();
        }
        let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", s(&r)]);
        assert_eq!(code, Some(0), "{err}");
    }
    let plots = d.join("plots");
    let (code, out, err) = run(&["--db", db, "trend", "Barrier", "--plot", s(&plots)]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("# trend of Barrier, 2 processes, t_avg[usec] on system vm: "),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(rows.len(), 4, "{out}");
    // The median of each run's five launches, 2.1 × 1.02.
    assert!(rows[1].contains(" 2.14 "), "{out}");
    let svg = std::fs::read_to_string(plots.join("trend-Barrier-np2.svg")).unwrap();
    assert!(svg.contains("Barrier, 2 processes: trend over stored runs"));
    // --bytes where the rows have no size, and none where they have: one line naming it.
    for (args, says) in [
        (
            vec!["trend", "--db", db, "Barrier", "--bytes", "0"],
            "--bytes: Barrier's rows have no message size (no #bytes): leave out --bytes",
        ),
        (
            vec!["trend", "--db", db, "PingPong"],
            "--bytes: PingPong's rows have message sizes: name one with --bytes N",
        ),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}");
        assert_eq!(err, format!("imb-compare: {says}\n"), "{args:?}");
    }
}

/// A trend never calls a difference of conditions a change: a run at another thread level
/// starts a new series (`conditions differ`), and a run cut short is left out, as a comparison
/// of the two runs would say.
#[test]
fn a_trend_does_not_mix_incomparable_runs() {
    let d = scratch("trend-conditions");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let mut args: Vec<String> = ["store", "add", "--db", db, "--system", "vm"]
        .iter()
        .map(|x| x.to_string())
        .collect();
    for day in 1..=3 {
        args.push(run_dir(&d, &format!("r{day}"), day, 1.0, 5, 3));
    }
    // Day 4: the same program under MPI_THREAD_MULTIPLE, 1.5 times slower.
    let multiple = d.join("r4");
    std::fs::create_dir_all(&multiple).unwrap();
    for k in 0..5u32 {
        let text = launch(4, k, 1.5 + 0.01 * f64::from(k), 3)
            .replace("MPI_THREAD_SINGLE", "MPI_THREAD_MULTIPLE");
        std::fs::write(multiple.join(format!("{}.txt", k + 1)), text).unwrap();
    }
    args.push(s(&multiple).to_string());
    // Day 5: cut short (no closing line), far off.
    let cut = d.join("r5");
    std::fs::create_dir_all(&cut).unwrap();
    for k in 0..5u32 {
        let text = launch(5, k, 9.0 + 0.01 * f64::from(k), 3)
            .replace("# All processes entering MPI_Finalize", "");
        std::fs::write(cut.join(format!("{}.txt", k + 1)), text).unwrap();
    }
    args.push(s(&cut).to_string());
    let (code, _, err) = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(&["trend", "--db", db, "PingPong", "--bytes", "0"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("CHANGE"), "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        lines[4].contains(
            "conditions differ, a new series: thread level: MPI_THREAD_SINGLE (before) vs \
             MPI_THREAD_MULTIPLE (this run)"
        ),
        "{out}"
    );
    assert!(
        lines[5].contains("left out: cut short (no closing line"),
        "{out}"
    );
}

/// The files in `dir` whose name starts with a dot.
fn hidden(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    v.sort();
    v
}

/// A store add killed (SIGKILL) while it made the store leaves its temporary file: the next
/// store add beside it removes it, and only it (a live process's, another host's, a file of the
/// user's stay).
#[test]
fn a_store_creation_killed_leaves_nothing_for_good() {
    let d = scratch("creation");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // No process has this id: Linux's pid_max is at most 2^22.
    let dead = i32::MAX;
    let stale = [
        format!(".results.sqlite.new-{host}-{dead}"),
        format!(".results.sqlite.new-{host}-{dead}-journal"),
        format!(".results.sqlite.new-{host}-{dead}-wal"),
    ];
    let kept = [
        format!(".results.sqlite.new-{host}-{}", std::process::id()),
        format!(".results.sqlite.new-elsewhere-{dead}"),
        ".results.sqlite.new-notes".to_string(),
        format!(".other.sqlite.new-{dead}"),
    ];
    for f in stale.iter().chain(&kept) {
        std::fs::write(d.join(f), "x").unwrap();
    }
    let base = run_dir(&d, "base", 1, 1.0, 1, 3);
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &base]);
    assert_eq!(code, Some(0), "{err}");
    let mut want = kept.to_vec();
    want.sort();
    assert_eq!(hidden(&d), want);
}

/// Reading commands open the store read-only: a store on a read-only mount is listed, shown,
/// compared and trended; a writing command says it cannot write (status 3).
#[test]
fn a_store_on_a_read_only_mount_is_read() {
    let Some(disk) = imb_testkit::SmallDisk::new("imb-compare-store-ro", "2m") else {
        println!("skipped: cannot mount a small tmpfs here (not root?)");
        return;
    };
    let d = scratch("read-only");
    let db = disk.0.join("results.sqlite");
    let db = s(&db);
    for (k, day) in [(1, 1), (2, 2)] {
        let r = run_dir(&d, &format!("r{k}"), day, 1.0, 3, 4);
        let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &r]);
        assert_eq!(code, Some(0), "{err}");
    }
    // A copy whose log holds a commit not yet in the file (its writer never closed it).
    let logged = d.join("logged.sqlite");
    std::fs::copy(db, &logged).unwrap();
    let c = Connection::open(&logged).unwrap();
    c.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    c.execute("UPDATE runs SET label = 'x'", []).unwrap();
    for ext in ["", "-wal"] {
        std::fs::copy(
            format!("{}{ext}", s(&logged)),
            disk.0.join(format!("logged.sqlite{ext}")),
        )
        .unwrap();
    }
    std::mem::forget(c);
    let ro = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&disk.0)
        .status()
        .unwrap();
    assert!(ro.success());
    let before = std::fs::read(db).unwrap();
    for args in [
        vec!["store", "list", "--db", db],
        vec!["store", "show", "--db", db, "--system", "vm", "@latest"],
        vec!["--db", db, "--system", "vm", "@1", "@2"],
        vec![
            "trend", "PingPong", "--bytes", "1", "--db", db, "--system", "vm",
        ],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(!out.is_empty(), "{args:?}");
    }
    let (code, out, err) = run(&["store", "accept", "--db", db, "2"]);
    assert_eq!((code, out.as_str()), (Some(3), ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(std::fs::read(db).unwrap(), before);
    // A log with writes not yet in the file cannot be read here: said, not read half.
    let logged = disk.0.join("logged.sqlite");
    let (code, out, err) = run(&["store", "list", "--db", s(&logged)]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert!(err.contains("holds writes not yet in it"), "{err}");
}

/// `$IMB_RS_SYSTEM` is checked as `--system` is: a right-to-left override, a blank name or
/// bytes that are not UTF-8 are refused in one line naming it, and nothing is stored.
#[test]
fn imb_rs_system_is_checked_as_system_is() {
    use std::os::unix::ffi::OsStrExt;
    let d = scratch("env-system");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let base = run_dir(&d, "base", 1, 1.0, 1, 3);
    let values: [(&std::ffi::OsStr, &str); 4] = [
        ("vm\u{202e}lanigiro".as_ref(), "text-direction"),
        ("   ".as_ref(), "a blank name"),
        ("a,b".as_ref(), "a name has no commas"),
        (std::ffi::OsStr::from_bytes(b"vm\xff"), "is not UTF-8"),
    ];
    for (value, says) in values {
        let o = cmd(&["store", "add", "--db", db, &base])
            .env("IMB_RS_SYSTEM", value)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{value:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("imb-compare: $IMB_RS_SYSTEM") && err.contains(says),
            "{value:?}: {err}"
        );
        assert!(!err.contains('\u{202e}'), "{err}");
    }
    assert!(!Path::new(db).exists());
    // The same names as options, and labels and tags, are refused alike.
    for args in [
        vec!["--system", "vm\u{202e}x"],
        vec!["--system", "vm", "--label", " "],
        vec!["--system", "vm", "--tag", "\u{200b}"],
        vec!["--system", "vm", "--label", " padded"],
    ] {
        let mut all = vec!["store", "add", "--db", db];
        all.extend(args.iter());
        all.push(&base);
        let (code, _, err) = run(&all);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let o = cmd(&["store", "add", "--db", db, "--system", "vm"])
        .arg("--label")
        .arg(std::ffi::OsStr::from_bytes(b"x\xfe"))
        .arg(&base)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("--label: argument 8"), "{err}");
    assert!(!Path::new(db).exists());
    // $IMB_RS_DB that is not UTF-8 is refused, not read as unset (another store used).
    let o = cmd(&["store", "list"])
        .env(
            "IMB_RS_DB",
            std::ffi::OsStr::from_bytes(b"/tmp/x\xff.sqlite"),
        )
        .env("HOME", &*d)
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with("imb-compare: $IMB_RS_DB: "), "{err}");
}

/// Every time the store shows says its zone: a `-json` launch's start and the time a run was
/// added are UTC, a text launch's Date line the local time of its machine.
#[test]
fn store_dates_say_their_zone() {
    let d = scratch("dates");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let text = format!("{CORPUS}/imbtext/imb-3.0.txt");
    let json = format!("{CORPUS}/jsondoc/imb-rs-mpi1.json");
    for f in [&text, &json] {
        let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", f]);
        assert_eq!(code, Some(0), "{err}");
    }
    let (_, out, _) = run(&["store", "list", "--db", db]);
    let row = |n: &str| out.lines().find(|l| l.trim_start().starts_with(n)).unwrap();
    assert!(row("1 ").contains("2026-11-21 10:05:42 local"), "{out}");
    assert!(row("2 ").contains("2026-11-25 16:06:32 UTC"), "{out}");
    let (_, show, _) = run(&["store", "show", "--db", db, "2"]);
    assert!(show.contains("started 2026-11-25 16:06:32 UTC"), "{show}");
    let added = show.lines().find(|l| l.contains("added: ")).unwrap();
    assert!(added.contains(" UTC from "), "{show}");
    let (_, show1, _) = run(&["store", "show", "--db", db, "1"]);
    assert!(
        show1.contains("started 2026-11-21 10:05:42 local"),
        "{show1}"
    );
}

/// The text of a launch added after its -json, or the -json after its text: the run's date is
/// the -json's start (UTC) either way.
#[test]
fn a_json_joining_its_text_dates_the_run() {
    let d = scratch("join-date");
    let db = d.join("results.sqlite");
    let db = s(&db);
    for f in ["imbtext/imb-rs-mpi1.txt", "jsondoc/imb-rs-mpi1.json"] {
        let (code, _, err) = run(&[
            "store",
            "add",
            "--db",
            db,
            "--system",
            "vm",
            &format!("{CORPUS}/{f}"),
        ]);
        assert_eq!(code, Some(0), "{err}");
    }
    let (_, out, _) = run(&["store", "list", "--db", db]);
    assert!(out.contains("2026-11-25 16:06:32 UTC"), "{out}");
}

/// Selectors that name no run say why, not "no stored run matches": run 0 and negative
/// numbers, a range of run numbers, empty terms, names no run can have.
#[test]
fn selectors_that_can_name_no_run_say_why() {
    let d = scratch("selectors");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let base = run_dir(&d, "base", 1, 1.0, 1, 3);
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &base]);
    assert_eq!(code, Some(0), "{err}");
    for (sel, says) in [
        ("@0", "a run number is a whole number from 1"),
        ("@-1", "a run number is a whole number from 1"),
        ("@run=0", "a run number is a whole number from 1"),
        (
            "@99999999999999999999",
            "a run number is a whole number from 1",
        ),
        ("@1..5", "is not a day"),
        ("@latest,,tag=x", "an empty term"),
        ("@latest,", "an empty term"),
        (
            "@label=a\u{1b}[2Jb",
            "no control, invisible or text-direction",
        ),
        ("@tag=\u{202e}x", "no control, invisible or text-direction"),
        ("@system= vm", "does not start or end with a space"),
    ] {
        let (code, out, err) = run(&["store", "list", "--db", db, sel]);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{sel}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(says), "{sel}: {err}");
        assert!(
            !err.contains('\u{1b}') && !err.contains('\u{202e}'),
            "{err}"
        );
    }
}

/// A trend says, for each run without the figure, why: the size flagged, not measured, or the
/// table missing; on one run, and when every run's figure is flagged, it says so too.
#[test]
fn a_trend_says_why_a_run_has_no_figure() {
    let d = scratch("trend-why");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let dir = |name: &str, day: u32, edit: &dyn Fn(String) -> String| {
        let p = d.join(name);
        std::fs::create_dir_all(&p).unwrap();
        for k in 0..3 {
            std::fs::write(
                p.join(format!("{k}.txt")),
                edit(launch(day, k, 1.0 + 0.01 * f64::from(k), 4)),
            )
            .unwrap();
        }
        s(&p).to_string()
    };
    let flag = |t: String| {
        t.replace(
            "\n\n# All processes",
            "\n# adaptive: 1 bytes: median 1.00 usec: UNSETTLED (half-width 5.0 %, cut-off 1 %)\n\n# All processes",
        )
    };
    let flagged = dir("flagged", 1, &flag);
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &flagged]);
    assert_eq!(code, Some(0), "{err}");
    // Every run's figure flagged: no figure, and why.
    let (code, _, err) = run(&[
        "trend", "PingPong", "--bytes", "1", "--db", db, "--system", "vm",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("no stored run has a figure of PingPong at 1 bytes (run 1 flagged UNSETTLED)"),
        "{err}"
    );
    let whole = dir("whole", 2, &|t| t);
    let np4 = dir("np4", 3, &|t| t.replace("#processes = 2", "#processes = 4"));
    let short = dir("short", 4, &|t| {
        t.lines()
            .filter(|l| !l.trim_start().starts_with("1 "))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    let (code, _, err) = run(&[
        "store", "add", "--db", db, "--system", "vm", &whole, &np4, &short,
    ]);
    assert_eq!(code, Some(0), "{err}");
    // One run with the figure: a trend of one run.
    let (code, out, err) = run(&[
        "trend",
        "PingPong",
        "--bytes",
        "1",
        "--processes",
        "2",
        "--db",
        db,
        "--system",
        "vm",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.ends_with(
            "# 1 run(s), 0 change point(s); 3 run(s) without this figure: 1 (flagged \
             UNSETTLED), 3 (no PingPong, 2 processes), 4 (not measured at 1 bytes)\n"
        ),
        "{out}"
    );
    // No run of the system at all: said without a selector the user never wrote.
    let (code, _, err) = run(&[
        "trend", "PingPong", "--bytes", "1", "--db", db, "--system", "x",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no stored run of system x"), "{err}");
    assert!(!err.contains("@date"), "{err}");
}

/// Damage inside an intact database (a page overwritten in the middle of a stored text, a
/// value that is no longer UTF-8) is called damage of the store, naming the run and file,
/// never blamed on a launch file; status 2, the store left as it is.
#[test]
fn damage_inside_the_store_is_called_so() {
    let d = scratch("damage");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let json = format!("{CORPUS}/jsondoc/imb-rs-mpi1.json");
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &json]);
    assert_eq!(code, Some(0), "{err}");
    {
        let c = Connection::open(db).unwrap();
        // One byte of the stored -json changed, as a bad sector or a stray write would.
        c.execute(
            "UPDATE files SET text = substr(text, 1, 300) || '\u{1}' || substr(text, 302)",
            [],
        )
        .unwrap();
    }
    let before = std::fs::read(db).unwrap();
    for args in [
        vec!["--db", db, "--system", "vm", "@1", "@1"],
        vec![
            "trend", "PingPong", "--bytes", "8", "--db", db, "--system", "vm",
        ],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!((code, out.as_str()), (Some(2), ""), "{args:?}: {err}");
        assert!(
            err.contains("damaged: run 1's file imb-rs-mpi1.json no longer has the SHA-256"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(db).unwrap(), before);
    {
        let c = Connection::open(db).unwrap();
        c.execute("UPDATE runs SET label = CAST(x'ff41' AS TEXT)", [])
            .unwrap();
    }
    let (code, out, err) = run(&["store", "list", "--db", db]);
    assert_eq!((code, out.as_str()), (Some(2), ""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("damaged (") && err.contains("restore it from a copy"),
        "{err}"
    );
}

/// Several store adds at once, each of the same shared run and one of its own: the shared
/// launches are stored once, every own run is there, nothing is lost or doubled.
#[test]
fn concurrent_adds_of_the_same_files_store_them_once() {
    let d = scratch("same-files");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let shared = run_dir(&d, "shared", 1, 1.0, 3, 5);
    let own: Vec<String> = (0..5)
        .map(|k| run_dir(&d, &format!("own{k}"), 2 + k, 1.0, 2, 5))
        .collect();
    let children: Vec<_> = own
        .iter()
        .map(|o| {
            cmd(&["store", "add", "--db", db, "--system", "vm", &shared, o])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut made = 0;
    for c in children {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        made += String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| l.starts_with(&format!("{shared}: run ")))
            .count();
    }
    assert_eq!(made, 1, "the shared run was added {made} times");
    assert_eq!(count(db, "SELECT count(*) FROM runs"), 6);
    assert_eq!(count(db, "SELECT count(*) FROM launches"), 3 + 5 * 2);
    assert_eq!(count(db, "SELECT count(DISTINCT sha256) FROM files"), 13);
    assert_eq!(count(db, "SELECT count(*) FROM files"), 13);
    assert_eq!(integrity(db), "ok");
}

/// `store rm` and `store accept` killed (SIGKILL) at moments from at once to after they are
/// done: every time the store is whole, the run removed wholly or not at all, the baseline
/// accepted or not. Any outcome of the race is fine; each is checked.
#[test]
fn rm_and_accept_killed_leave_the_store_whole() {
    use std::os::unix::process::ExitStatusExt;
    let d = scratch("killed-rm");
    let db = d.join("results.sqlite");
    let db = s(&db);
    let first = run_dir(&d, "first", 1, 1.0, 2, 5);
    let launches = 40;
    let big = run_dir(&d, "big", 2, 1.0, launches, 3000);
    let (code, _, err) = run(&["store", "add", "--db", db, "--system", "vm", &first, &big]);
    assert_eq!(code, Some(0), "{err}");
    let mut outcomes = Vec::new();
    for (args, what) in [
        (["store", "accept", "--db", db, "2"], "accept"),
        (["store", "rm", "--db", db, "2"], "rm"),
    ] {
        for delay in [0u64, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] {
            let mut child = cmd(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(delay));
            let _ = child.kill();
            let status = child.wait().unwrap();
            assert_eq!(integrity(db), "ok", "{what} after {delay} ms");
            let runs = count(db, "SELECT count(*) FROM runs WHERE id = 2");
            let l = count(db, "SELECT count(*) FROM launches WHERE run = 2");
            let f = count(
                db,
                "SELECT count(*) FROM files WHERE launch IN (SELECT id FROM launches WHERE run = 2)",
            );
            let orphans = count(
                db,
                "SELECT (SELECT count(*) FROM launches WHERE run NOT IN (SELECT id FROM runs)) \
                 + (SELECT count(*) FROM files WHERE launch NOT IN (SELECT id FROM launches)) \
                 + (SELECT count(*) FROM accepted WHERE run NOT IN (SELECT id FROM runs))",
            );
            assert_eq!(orphans, 0, "{what} after {delay} ms");
            let n = launches as i64;
            assert!(
                (runs, l, f) == (1, n, n) || (runs, l, f) == (0, 0, 0),
                "{what} after {delay} ms: run 2 has {l} launches, {f} files"
            );
            assert!(count(db, "SELECT count(*) FROM accepted") <= 1);
            let (code, _, err) = run(&["store", "list", "--db", db]);
            assert_eq!(code, Some(0), "{err}");
            outcomes.push(format!("{what} {delay} ms: {:?}", status.signal()));
            if status.signal().is_none() {
                break;
            }
        }
    }
    println!("{outcomes:?}");
    // Whatever the kills left, the store still takes the command whole.
    if count(db, "SELECT count(*) FROM runs WHERE id = 2") == 1 {
        let (code, _, err) = run(&["store", "rm", "--db", db, "2"]);
        assert_eq!(code, Some(0), "{err}");
    }
    assert_eq!(count(db, "SELECT count(*) FROM runs"), 1);
    assert_eq!(integrity(db), "ok");
}
