use super::*;

fn pairs(ours: &[f64], raw: &[f64]) -> Pairs {
    Pairs {
        ours: ours.to_vec(),
        raw: raw.to_vec(),
    }
}

#[test]
fn ratios_follow_the_goal() {
    let p = pairs(&[2.0, 4.0], &[1.0, 8.0]);
    assert_eq!(p.ratios(Goal::Latency), vec![2.0, 0.5]);
    assert_eq!(p.ratios(Goal::Bandwidth), vec![0.5, 2.0]);
    assert_eq!(Goal::by_size(4), Goal::Latency);
    assert_eq!(Goal::by_size(4 << 20), Goal::Bandwidth);
}

#[test]
fn summary_takes_upper_median_and_quartiles() {
    let p = pairs(&[1.0, 2.0, 3.0, 4.0], &[1.0, 1.0, 1.0, 1.0]);
    let s = p.summary(Goal::Latency, |t| t * 10.0);
    assert_eq!((s.ours, s.raw), (30.0, 10.0));
    assert_eq!((s.ratio, s.q1, s.q3), (3.0, 2.0, 4.0));
    assert_eq!(s.verdict(), "t ours/raw <= 1.02 FAIL");
    let s = pairs(&[1.0], &[1.0]).summary(Goal::Bandwidth, |t| t);
    assert_eq!(s.verdict(), "MB/s ours/raw >= 0.98 PASS");
    assert!(median(&[]).is_nan());
}

fn latency_table() -> Table {
    Table::new()
        .key("bytes", 13)
        .key("reps", 5)
        .sides("usec", 12, 4)
        .ratio("ratio(median)", 15, 4)
        .iqr()
        .target()
}

#[test]
fn header_and_row_keep_the_columns() {
    let t = latency_table();
    assert_eq!(
        t.header(),
        "#       bytes  reps   ours[usec]    raw[usec]   ratio(median)   ratio IQR      target"
    );
    let s = Summary {
        ours: 0.25,
        raw: 0.2475,
        ratio: 1.0101,
        q1: 0.998,
        q3: 1.012,
        goal: Goal::Latency,
    };
    assert_eq!(
        t.row(&[&0, &20000], &s, &[]),
        "            0 20000       0.2500       0.2475          1.0101   0.998..1.012   t ours/raw <= 1.02 PASS"
    );
}

#[test]
fn left_keys_and_extras() {
    let t = Table::new()
        .key("bytes", 11)
        .key_left("mode", 13, "  ")
        .key("reps", 5)
        .sides("usec", 11, 2)
        .extra("on/off", 8, 3);
    assert_eq!(
        t.header(),
        "#     bytes  mode           reps  ours[usec]   raw[usec]   on/off"
    );
    let s = Summary {
        ours: 1.0,
        raw: 2.0,
        ratio: 0.5,
        q1: 0.5,
        q3: 0.5,
        goal: Goal::Latency,
    };
    assert_eq!(
        t.row(&[&4, &"AGGREGATE", &1000], &s, &[1.25]),
        "          4  AGGREGATE      1000        1.00        2.00    1.250"
    );
}

#[test]
fn one_sided_cases_follow_the_mode_caps() {
    let p = crate::settings::standard(&crate::settings::STANDARD);
    let cases = one_sided_cases(&p, [Mode::NonAggregate, Mode::Aggregate], &[4, 4 << 20]);
    let n = |x, cap| crate::lengths::n_sample(x, cap, p.overall_vol);
    assert_eq!(
        cases,
        vec![
            (4, Mode::NonAggregate, n(4, p.msgs_nonaggr)),
            (4 << 20, Mode::NonAggregate, n(4 << 20, p.msgs_nonaggr)),
            (4, Mode::Aggregate, n(4, p.msgspersample)),
            (4 << 20, Mode::Aggregate, n(4 << 20, p.msgspersample)),
        ]
    );
    let [a, b] = intro("PingPong", "imb-mpi1", "20 pairs".into());
    assert_eq!(
        a,
        "imb-rs harness overhead: our PingPong (imb-core Timed::run over the imb-mpi1 kernel)"
    );
    assert_eq!(b, "beside a raw-FFI loop of the same pattern, 20 pairs");
}
