use super::*;

/// Run `f` on a fresh thread, so binding never touches the test harness's threads.
fn on_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f).join().expect("test thread panicked")
}

#[test]
fn placement_labels() {
    assert_eq!(Placement::Unbound.label(), "unbound");
    assert_eq!(Placement::Cpu(3).label(), "cpu3");
}

#[test]
fn bind_parse_and_name() {
    for b in BINDS {
        assert_eq!(Bind::parse(b.name()), Ok(b));
    }
    assert_eq!(BINDS.map(|b| b.name()), ["same", "different", "none"]);
    assert_eq!(Bind::parse("SAME"), Ok(Bind::Same));
    assert_eq!(Bind::parse("Different"), Ok(Bind::Different));
    let err = Bind::parse("both").unwrap_err();
    assert!(err.contains("both"), "{err}");
    assert!(err.contains("same|different|none"), "{err}");
}

#[test]
fn plan_each_bind() {
    let allowed = [2, 5, 7];
    assert_eq!(
        plan(Bind::Same, 3, &allowed),
        Ok(vec![Placement::Cpu(2); 3])
    );
    assert_eq!(
        plan(Bind::Different, 2, &allowed),
        Ok(vec![Placement::Cpu(2), Placement::Cpu(5)])
    );
    assert_eq!(
        plan(Bind::None, 4, &allowed),
        Ok(vec![Placement::Unbound; 4])
    );
    assert_eq!(plan(Bind::Same, 0, &[]), Ok(vec![]));
    assert!(plan(Bind::Same, 1, &[]).is_err());
}

#[test]
fn plan_different_needs_enough_cpus() {
    let err = plan(Bind::Different, 3, &[0, 1]).unwrap_err();
    assert!(err.contains("need 3 CPUs"), "{err}");
    assert!(err.contains("only 2"), "{err}");
    assert!(err.contains("allowed: 0-1"), "{err}");
}

#[test]
fn cpu_list_compresses_ranges() {
    assert_eq!(cpu_list(&[0, 1, 2, 3, 6]), "0-3,6");
    assert_eq!(cpu_list(&[0, 1]), "0-1");
    assert_eq!(cpu_list(&[4]), "4");
    assert_eq!(cpu_list(&[1, 3, 5, 6, 7, 9]), "1,3,5-7,9");
    assert_eq!(cpu_list(&[3, 1, 2, 2]), "1-3");
    assert_eq!(cpu_list(&[]), "none");
}

#[test]
fn check_allowed_names_cpu_and_mask() {
    assert_eq!(check_allowed(1, &[0, 1]), Ok(()));
    assert_eq!(
        check_allowed(7, &[0, 1]),
        Err("-cpus 7: not in this process's affinity mask (allowed: 0-1)".to_string())
    );
}

#[test]
fn stat_processor_skips_awkward_command_names() {
    // 52 fields as in a real line; the command name holds a space and a ')'.
    let mut fields: Vec<String> = (3..=52).map(|i| i.to_string()).collect();
    fields[39 - 3] = "5".to_string();
    let line = format!("1234 (a b) c) {}\n", fields.join(" "));
    assert_eq!(stat_processor(&line), Some(5));
    assert_eq!(stat_processor("garbage"), None);
}

#[test]
fn allowed_cpus_is_ascending_and_not_empty() {
    let allowed = allowed_cpus().unwrap();
    assert!(!allowed.is_empty());
    assert!(allowed.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn bind_observe_and_unbind_on_a_spawned_thread() {
    let allowed = allowed_cpus().unwrap();
    on_thread(move || {
        let first = Placement::Cpu(allowed[0]);
        bind_current(first, &allowed).unwrap();
        let o = observe(first, &allowed);
        assert!(o.mask_ok, "{o:?}");
        assert_eq!(o.cpu, Some(allowed[0]));
        assert!(honoured(first, &o));

        bind_current(Placement::Unbound, &allowed).unwrap();
        let o = observe(Placement::Unbound, &allowed);
        assert!(o.mask_ok, "{o:?}");
        assert!(honoured(Placement::Unbound, &o));
        // The thread is no longer pinned, so a bound verdict must not pass on the mask.
        if allowed.len() >= 2 {
            assert!(!observe(first, &allowed).mask_ok);
        }
    });
}

#[test]
fn different_cpus_on_spawned_threads() {
    let allowed = allowed_cpus().unwrap();
    if allowed.len() < 2 {
        return; // Needs two CPUs in the mask.
    }
    let places = plan(Bind::Different, 2, &allowed).unwrap();
    let handles: Vec<_> = places
        .into_iter()
        .map(|p| {
            let allowed = allowed.clone();
            std::thread::spawn(move || {
                bind_current(p, &allowed).unwrap();
                (p, observe(p, &allowed))
            })
        })
        .collect();
    for h in handles {
        let (p, o) = h.join().unwrap();
        assert!(honoured(p, &o), "{} not honoured: {o:?}", p.label());
    }
}

#[test]
fn honoured_verdicts() {
    let good = Observed {
        mask_ok: true,
        cpu: Some(1),
    };
    assert!(honoured(Placement::Cpu(1), &good));
    assert!(!honoured(Placement::Cpu(0), &good));
    assert!(honoured(Placement::Unbound, &good));
    let bad_mask = Observed {
        mask_ok: false,
        cpu: Some(1),
    };
    assert!(!honoured(Placement::Cpu(1), &bad_mask));
    assert!(!honoured(Placement::Unbound, &bad_mask));
    let unknown_cpu = Observed {
        mask_ok: true,
        cpu: None,
    };
    assert!(!honoured(Placement::Cpu(1), &unknown_cpu));
}

#[test]
fn binding_outside_the_cpuset_range_is_an_error() {
    let allowed = allowed_cpus().unwrap();
    let err = on_thread(move || bind_current(Placement::Cpu(CpuSet::count()), &allowed));
    assert!(err.unwrap_err().contains("beyond"));
}
