//! imb-nbc's rooted operations under `-root_shift on|off` under a real mpirun: the root moves
//! (or stays) in the `_pure` and the overlap loops alike, and `-check` follows it, so every
//! table checks clean.

mod common;
use common::*;

/// Every rooted benchmark and two `_pure` variants, in the suite's order.
const ROOTED: [&str; 8] = [
    "Ibcast",
    "Igather",
    "Igatherv",
    "Iscatter",
    "Iscatterv",
    "Ireduce",
    "Ibcast_pure",
    "Ireduce_pure",
];

const SUCCESS: &str = "\n\n!!!!  ALL BENCHMARKS SUCCESSFUL !!!! \n";

/// `ROOTED -check -msglog 0:4 -iter 20` plus `extra` at np 3 only: the tables, their layout and
/// sizes, no defect, the success line and exit status 0. Each table's `#repetitions`.
fn rooted_check_np3(extra: &[&str]) -> Vec<(String, Vec<usize>)> {
    let mut args = ROOTED.to_vec();
    args.extend(["-npmin", "3", "-check", "-msglog", "0:4", "-iter", "20"]);
    args.extend(extra);
    let o = mpirun(3, &args);
    ok(&o);
    assert!(o.stdout.contains(SUCCESS), "{extra:?}\n{}", o.stdout);
    let t = tables(&o.stdout);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ROOTED, "{extra:?}");
    t.iter()
        .map(|t| {
            let (header, rule) = layout(&t.title);
            let header = format!("{header}      defects");
            assert_eq!(
                (t.header.as_str(), t.rule),
                (header.as_str(), rule + 13),
                "{extra:?} {}",
                t.title
            );
            let sizes: &[usize] = if reduction(&t.title) {
                &[0, 4, 8, 16]
            } else {
                &[0, 1, 2, 4, 8, 16]
            };
            assert_eq!(t.ints("#bytes"), sizes, "{extra:?} {}", t.title);
            let d = t.column("defects");
            assert!(
                d.iter().all(|d| d == "0.00"),
                "{extra:?} {}: {d:?}",
                t.title
            );
            let reps = t.ints("#repetitions");
            assert!(
                reps.iter().all(|&r| (1..=20).contains(&r)),
                "{extra:?} {}: {reps:?}",
                t.title
            );
            (t.title.clone(), reps)
        })
        .collect()
}

#[test]
fn root_shift_on_and_off_check_clean_np3() {
    for extra in [&["-root_shift", "on"][..], &["-root_shift", "off"]] {
        rooted_check_np3(extra);
    }
}

/// IMB 2021's `-iter_policy auto` counts the benchmarks it flags as rooted in multiples of NP
/// (every rank the root equally often); it does not flag Ireduce_pure.
#[test]
fn compat_2021_auto_policy_counts_rooted_ones_in_multiples_of_np() {
    let reps = rooted_check_np3(&[
        "-compat",
        "2021",
        "-root_shift",
        "on",
        "-iter_policy",
        "auto",
    ]);
    for (title, reps) in reps {
        if title != "Ireduce_pure" {
            assert!(reps.iter().all(|r| r % 3 == 0), "{title}: {reps:?}");
        }
    }
}
