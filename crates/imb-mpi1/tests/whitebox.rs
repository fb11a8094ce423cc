//! Jacobi2D, the white-box application kernel, under a real mpirun: the three kernels compute
//! what a serial run computes (check mode), the decomposition adds up to the full kernel's
//! time, the section timers are reported per size, and sizes outside its range are named.

mod common;
use common::*;

fn floats(t: &Table, c: &str) -> Vec<f64> {
    t.column(c).iter().map(|v| v.parse().unwrap()).collect()
}

#[test]
fn kernels_checked_and_decomposition_adds_up_at_np_2_3_4() {
    for np in [2, 3, 4] {
        let nps = np.to_string();
        let o = mpirun(
            np,
            &[
                "Jacobi2D", "-msglog", "3:9", "-iter", "40", "-npmin", &nps, "-check",
            ],
        );
        ok(&o);
        assert!(
            o.stdout.contains("ALL BENCHMARKS SUCCESSFUL"),
            "{}",
            o.stdout
        );
        let t = &tables(&o.stdout)[0];
        assert_eq!(
            t.header.split_whitespace().collect::<Vec<_>>(),
            [
                "#bytes",
                "#repetitions",
                "comm[usec]",
                "move[usec]",
                "comp[usec]",
                "total[usec]",
                "pred_Exch",
                "pred_PPong",
                "defects"
            ]
        );
        let bytes = t.ints("#bytes");
        assert_eq!(bytes, [8, 16, 32, 64, 128, 256, 512]);
        let (c, m, p, total) = (
            floats(t, "comm[usec]"),
            floats(t, "move[usec]"),
            floats(t, "comp[usec]"),
            floats(t, "total[usec]"),
        );
        for k in 0..bytes.len() {
            // Each printed part is rounded to 0.01 (the decomposition adds up by construction;
            // no value is judged, a loaded machine may print anything).
            assert!(
                (c[k] + m[k] + p[k] - total[k]).abs() <= 0.0201,
                "comm + move + comp != total at {} bytes: {}",
                bytes[k],
                o.stdout
            );
        }
        for col in ["pred_Exch", "pred_PPong"] {
            assert_eq!(floats(t, col).len(), bytes.len(), "{col}: {}", o.stdout);
        }
        assert!(t.column("defects").iter().all(|d| d == "0.00"));
        // The section timers: a title, their names, a column line and one line per size.
        let head = "# section timers of the full kernel (timers on), usec per repetition, \
                    min/max/avg over the ranks:\n";
        let at = o.stdout.find(head).expect("section notes");
        let lines: Vec<&str> = o.stdout[at + head.len()..].lines().collect();
        assert_eq!(
            lines[0],
            "# sections: communication (halo); data movement (pack, unpack); computation (update)"
        );
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            [
                "#",
                "#bytes",
                "communication",
                "data",
                "movement",
                "computation"
            ]
        );
        for (k, l) in lines[2..2 + bytes.len()].iter().enumerate() {
            let cells: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(cells[1], bytes[k].to_string(), "{l}");
            for cell in &cells[2..] {
                let v: Vec<f64> = cell.split('/').map(|x| x.parse().unwrap()).collect();
                assert!(
                    v.len() == 3 && v[0] <= v[2] + 0.01 && v[2] <= v[1] + 0.01,
                    "{l}"
                );
            }
        }
    }
}

#[test]
fn sizes_outside_its_range_are_named_and_one_process_is_invalid() {
    let dir = scratch("whitebox-range");
    let lens = write(&dir, "lens", "0\n12\n16384\n32768\n");
    let o = mpirun(2, &["Jacobi2D", "-msglen", &lens, "-iter", "5"]);
    ok(&o);
    assert!(
        o.stdout
            .contains("# Jacobi2D runs message sizes of 8 to 16384 bytes; not run: 0, 32768\n"),
        "{}",
        o.stdout
    );
    // 12 is rounded up to whole doubles.
    assert_eq!(tables(&o.stdout)[0].ints("#bytes"), [16, 16384]);
    let o = mpirun(1, &["Jacobi2D", "-npmin", "1"]);
    ok(&o);
    assert!(o
        .stdout
        .contains("# !! Benchmark Jacobi2D invalid for 1 process   !! \n"));
}
