//! imb-nbc under `-compat 2021` under a real mpirun: IMB 2021's CPU work and calibration
//! change the figures, never the tables or what `-check` finds.

mod common;
use common::*;

#[test]
fn compat_2021_keeps_the_tables_and_checks_clean() {
    let o = mpirun(
        2,
        &[
            "-compat",
            "2021",
            "Iallreduce",
            "Ibarrier",
            "-msglog",
            "0:4",
            "-iter",
            "20",
            "-check",
        ],
    );
    ok(&o);
    assert!(o.stdout.contains(", MPI-NBC part  \n"), "{}", o.stdout);
    assert!(!o.stdout.contains("CPU_Exploit"));
    let t = tables(&o.stdout);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["Iallreduce", "Ibarrier"]);
    for t in &t {
        let (header, rule) = layout(&t.title);
        let sync = t.title == "Ibarrier";
        // Check mode adds the defects column to the checked benchmark only.
        let (header, rule) = if sync {
            (header.to_string(), rule)
        } else {
            (format!("{header}      defects"), rule + 13)
        };
        assert_eq!((t.header.as_str(), t.rule), (header.as_str(), rule));
        // IMB 2021's repetition policy may take fewer than -iter, never more.
        let reps = t.ints("#repetitions");
        assert!(reps.iter().all(|&r| (1..=20).contains(&r)), "{reps:?}");
        for col in ["t_ovrl[usec]", "t_pure[usec]", "t_CPU[usec]", "overlap[%]"] {
            let v: Vec<f64> = t.column(col).iter().map(|v| v.parse().unwrap()).collect();
            assert_eq!(v.len(), reps.len(), "{col}");
            // The formula's range and the clock's sign, not a judgement of the timing.
            assert!(v.iter().all(|&x| x >= 0.0), "{col}: {v:?}");
            if col == "overlap[%]" {
                assert!(v.iter().all(|&x| x <= 100.0), "{v:?}");
            }
        }
        if sync {
            assert_eq!(reps.len(), 1);
            continue;
        }
        assert_eq!(t.ints("#bytes"), [0, 4, 8, 16]);
        let d = t.column("defects");
        assert!(d.iter().all(|d| d == "0.00"), "{d:?}");
    }
    assert!(
        o.stdout
            .contains("\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n"),
        "{}",
        o.stdout
    );
}
