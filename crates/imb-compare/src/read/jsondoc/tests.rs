use super::*;
use crate::read::run::Flag;
use crate::read::run::Status;
use serde_json::Value;

const DOC: &str = r##"{
  "suite": "imb-mpi1",
  "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE"},
  "tables": [
    {"benchmark": "PingPong", "processes": 2, "groups": [[0, 1]], "idle": 0, "multi": false,
     "mode": null, "columns": ["#bytes", "#repetitions", "t[usec]", "Mbytes/sec"],
     "keys": ["bytes", "repetitions", "t_us", "mbytes_per_s"],
     "rows": [{"bytes": 0, "repetitions": 1000, "mbytes_per_s": 0.0, "t_us": 0.12}],
     "notes": [], "unsuccessful": false},
    {"benchmark": "Allreduce", "processes": 2, "groups": [[0, 1], [2, 3]], "idle": 0,
     "multi": true, "mode": null,
     "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
     "rows": [{"#bytes": 4, "#repetitions": 1000, "t_min[usec]": 0.2, "t_max[usec]": 0.3,
               "t_avg[usec]": 0.25}],
     "notes": [], "unsuccessful": false}
  ],
  "complete": true
}"##;

/// imb-mt's threads per rank come from its resolved parameters (`-threads`), as the
/// text's `(threads: T)`: runs of one and two threads a rank differ when only `-json`
/// is read.
#[test]
fn imb_mt_threads_per_rank() {
    let doc = |t: usize| {
        format!(
            r##"{{"schema_version": 4, "suite": "imb-mt",
  "provenance": {{"parameters": [{{"name": "-threads", "value": {t}, "standard": null,
                                  "origin": "standard"}}]}},
  "header": {{"version": "0.1.0", "part": "MT part", "thread_env": "MPI_THREAD_MULTIPLE"}},
  "tables": [
    {{"benchmark": "PingPongMT", "processes": 2, "groups": [[0, 1]], "idle": 0, "multi": false,
     "mode": null,
     "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]", "Mbytes/sec"],
     "keys": ["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us", "mbytes_per_s"],
     "rows": [{{"bytes": 8, "repetitions": 10, "t_min_us": 1.0, "t_max_us": 2.0,
               "t_avg_us": 1.5, "mbytes_per_s": 4.0}}],
     "notes": [], "unsuccessful": false}}
  ],
  "complete": true
}}"##
        )
    };
    let one = parse("one.json", &doc(1)).unwrap();
    let two = parse("two.json", &doc(2)).unwrap();
    assert_eq!(one.conditions.threads.as_deref(), Some("1"));
    assert_eq!(two.conditions.threads.as_deref(), Some("2"));
    // Another suite's parameter of that name is not a thread count.
    let mpi1 = parse("m.json", &doc(2).replace("\"imb-mt\"", "\"imb-mpi1\"")).unwrap();
    assert_eq!(mpi1.conditions.threads, None);
}

/// The first table is schema 2 (rows keyed by machine key), the second schema 1 (by
/// column title): files kept from either read the same.
#[test]
fn tables_as_the_text_shows_them() {
    let r = parse("a.json", DOC).unwrap();
    assert_eq!(r.title, "imb-rs 0.1.0, MPI-1 part");
    assert_eq!(r.thread_level(), Some("MPI_THREAD_SINGLE"));
    assert_eq!(r.status, Status::Complete);
    assert_eq!(r.tables[0].columns, ["bytes", "repetitions", "t", "mbytes"]);
    assert_eq!(r.tables[0].rows, [[0.0, 1000.0, 0.12, 0.0]]);
    let multi = &r.tables[1];
    assert_eq!(
        (multi.benchmark.as_str(), multi.processes, multi.groups),
        ("Multi-Allreduce", Some(2), 2)
    );
    assert_eq!(multi.rows[0][4], 0.25);
}

/// Schema 3's provenance is read loosely (library and hosts, wherever they sit) and any
/// other key is ignored; typed notes give flags and oversubscription.
#[test]
fn notes_and_provenance() {
    let doc = r##"{"schema_version": 3, "unknown": {"x": 1},
          "header": {"version": "0.1.0", "part": "MPI-1 part", "thread_env": "MPI_THREAD_SINGLE",
            "notes": [{"kind": "oversubscribed", "what": "processes", "count": 3, "cpus": 2,
                       "text": "3 processes share 2 CPUs on one host (oversubscribed): x"}]},
          "provenance": {"mpi": {"library_version": "Open MPI v4.1.4, package: Debian\nmore"},
                         "ranks": [{"rank": 0, "host": "n1", "cpus": [0]},
                                   {"rank": 1, "host": "n2", "cpus": [0]},
                                   {"rank": 2, "host": "n1", "cpus": [1]}],
                         "hosts": [{"host": "n1", "cpu_model": "AMD EPYC", "ranks": [0, 2]},
                                   {"host": "n2", "cpu_model": "AMD EPYC", "ranks": [1]}]},
          "tables": [{"benchmark": "Bcast_latency", "processes": 2, "groups": [[0, 1]],
            "columns": ["#bytes", "#repetitions", "t_min[usec]", "t_max[usec]", "t_avg[usec]"],
            "keys": ["bytes", "repetitions", "t_min_us", "t_max_us", "t_avg_us"],
            "rows": [{"bytes": 4, "repetitions": 10, "t_min_us": 1, "t_max_us": 1, "t_avg_us": 1}],
            "notes": [{"kind": "adaptive", "bytes": 4, "unsettled": {"half_width_pct": 2.0}},
                      {"kind": "adaptive", "bytes": 8, "unsettled": null},
                      {"kind": "unreliable", "bytes": 4, "rank": 1},
                      "adaptive: 16 bytes: median 1 usec: UNSETTLED (half-width 3 %)"]}]}"##;
    let r = parse("p.json", doc).unwrap();
    assert_eq!(
        r.provenance.as_deref(),
        Some("MPI library Open MPI v4.1.4, package: Debian; hosts n1, n2")
    );
    assert!(r
        .oversubscribed
        .unwrap()
        .starts_with("3 processes share 2 CPUs"));
    assert_eq!(
        r.tables[0].flags,
        [
            (Some(4), Flag::Unsettled),
            (Some(4), Flag::Unreliable),
            (Some(16), Flag::Unsettled)
        ]
    );
    // The conditions: where the ranks sat, by table and for the job.
    let c = &r.conditions;
    assert_eq!(
        c.mpi_library.as_deref(),
        Some("Open MPI v4.1.4, package: Debian")
    );
    assert_eq!(c.layout.as_deref(), Some("2+1 ranks on 2 hosts"));
    assert_eq!(
        c.hosts.as_deref(),
        Some(&["n1".to_string(), "n2".to_string()][..])
    );
    assert_eq!(
        r.tables[0].placement.as_deref(),
        Some("1+1 ranks on 2 hosts")
    );
    assert_eq!(c.program.as_deref(), Some("imb-rs 0.1.0"));
    assert_eq!(c.parameters.as_ref().map(|p| p.len()), Some(0));
}

#[test]
fn status_and_schema() {
    let with = |extra: &str| DOC.replace("\"suite\": \"imb-mpi1\",", extra);
    let st = |extra: &str| parse("s.json", &with(extra)).map(|r| r.status);
    assert_eq!(st("\"schema_version\": 2,"), Ok(Status::Complete));
    assert_eq!(
        st(r#""provenance": {"status": {"state": "failed", "error": "-dir: x"}},"#),
        Ok(Status::CutShort("status failed: -dir: x".into()))
    );
    assert!(matches!(
        st(r#""provenance": {"status": {"state": "running"}},"#),
        Ok(Status::CutShort(w)) if w.starts_with("status running")
    ));
    let e = st(r#""provenance": {"status": {"state": "odd"}},"#).unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.json, provenance.status.state: \"odd\": a status is complete, running, \
             interrupted or failed"
    );
    let e = st("\"schema_version\": \"3\",").unwrap_err().to_string();
    assert!(
        e.starts_with("s.json, schema_version: \"3\": this imb-compare reads"),
        "{e}"
    );
    let cut = DOC.replace("\"complete\": true", "\"complete\": false");
    assert!(parse("c.json", &cut).unwrap().status.cut_short().is_some());
}

/// The optional-mode note gives the parameters (as the text's `# !!` block does).
#[test]
fn optional_mode_parameters() {
    let doc = DOC.replace(
            "\"thread_env\": \"MPI_THREAD_SINGLE\"}",
            r#""thread_env": "MPI_THREAD_SINGLE", "date": "Wed Nov 25 05:21:10 2026",
               "notes": [{"kind": "optional_mode", "text": "Results from OPTIONAL mode, not standard mode:\nparameters set by the command line:\n  MAXMSGLOG = 4 (standard 22)\n  MSGSPERSAMPLE = 50 (standard 1000)"}]}"#,
        );
    let r = parse("o.json", &doc).unwrap();
    let p = r.conditions.parameters.unwrap();
    assert_eq!(p.get("MSGSPERSAMPLE").map(String::as_str), Some("50"));
    assert!(!p.contains_key("MAXMSGLOG"));
    assert_eq!(r.identity.date.as_deref(), Some("Wed Nov 25 05:21:10 2026"));
    assert!(r.identity.json);
}

/// A `-compat 2021` document: its method note gives the parameters, and its Mbytes/sec
/// (10^6 bytes) read as 2^20-byte megabytes, the unit runs are compared in.
#[test]
fn compat_2021_method_and_megabytes() {
    let doc = DOC
            .replace(
                "\"thread_env\": \"MPI_THREAD_SINGLE\"}",
                r#""thread_env": "MPI_THREAD_SINGLE",
               "notes": [{"kind": "method", "text": "Measured as IMB 2021 measures (-compat 2021), not as the IMB 3.0 guide says:\n  collectives timed call by call, an untimed barrier after each call (-sync on)\n  Mbytes/sec counts MB = 10^6 bytes"}]}"#,
            )
            .replace("\"mbytes_per_s\": 0.0", "\"mbytes_per_s\": 1048576.0");
    let r = parse("m.json", &doc).unwrap();
    let p = r.conditions.parameters.unwrap();
    assert_eq!(p.get("-compat").map(String::as_str), Some("2021"));
    assert_eq!(p.get("-sync").map(String::as_str), Some("on"));
    assert_eq!(r.tables[0].rows[0][3], 1e6);
}

/// Schema 3 adds `provenance` (and the suites without MPI write other tables); the tables
/// read as before.
#[test]
fn schema_3_reads_like_schema_2() {
    let doc = DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            r#""schema_version": 3, "suite": "imb-mpi1",
  "provenance": {"imb_rs_version": "0.1.0", "git_commit": null, "argv": ["imb-mpi1", {"lossy": "\ufffd", "hex": "ff"}],
    "parameters": [{"name": "MAXMSGLOG", "value": 3, "standard": 22, "origin": "command line"}],
    "settings_file": null,
    "mpi": {"library_version": "Open MPI v4.1.4", "standard_version": [3, 1],
            "thread_level": "MPI_THREAD_SINGLE", "thread_level_requested": "MPI_THREAD_SINGLE"},
    "ranks": [{"rank": 0, "host": "a", "cpus": [0], "wtick": 1e-9, "wtime_is_global": false}],
    "hosts": [{"host": "a", "cpu_model": null, "ranks": [0]}], "environment": {},
    "start": "2026-01-01T00:00:00.000Z", "end": "2026-01-01T00:00:01.000Z",
    "status": {"state": "complete"}},"#,
        );
    assert!(doc.contains("\"provenance\""));
    let (a, b) = (
        parse("a.json", DOC).unwrap(),
        parse("d.json", &doc).unwrap(),
    );
    assert_eq!(a.tables.len(), b.tables.len());
    assert_eq!(a.tables[0].rows, b.tables[0].rows);
    assert_eq!(a.title, b.title);
}

/// A schema 4 document as imb-mpi1 writes it on two names of one machine (the two
/// nodes of a test cluster on one computer): `p` is spliced into its provenance.
pub(crate) fn schema4(ids: [&str; 2], p: &str) -> String {
    DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            &format!(
                r##""schema_version": 4, "suite": "imb-mpi1",
  "provenance": {{"mpi": {{"library_version": "Open MPI v4.1.4", "thread_level": "MPI_THREAD_SINGLE",
      "control_variables": {{"count": 1116, "set": [
        {{"name": "btl", "source": "environment OMPI_MCA_btl", "launcher": false, "value": "self,vader,tcp"}},
        {{"name": "orte_hnp_uri", "source": "environment OMPI_MCA_orte_hnp_uri", "launcher": true, "value": "1.0;tcp://x"}},
        {{"name": "mpi_oversubscribe", "source": "environment OMPI_MCA_mpi_oversubscribe", "launcher": false, "value": {{"absent": "not read"}}}}],
        "unknown": [], "truncated": false}}}},
    "ranks": [{{"rank": 0, "host": "node1"}}, {{"rank": 1, "host": "node2"}}],
    "hosts": [{{"host": "node1", "cpu_model": "AMD EPYC", "ranks": [0],
                "machine": {{"id": "{}", "from": "boot_id"}}, "os_release": "Debian 12",
                "kernel": {{"sysname": "Linux", "release": "6.1.0", "version": "#1", "machine": "x86_64"}},
                "cpu": {{"model": "AMD EPYC", "logical": 2, "sockets": 1, "cores": 2, "threads_per_core": 1}},
                "numa": [{{"node": 0, "cpus": [0, 1], "mem_total_kib": 1}}],
                "governor": {{"absent": "not available"}}, "fabric_libraries": {{}}}},
              {{"host": "node2", "cpu_model": "AMD EPYC", "ranks": [1],
                "machine": {{"id": "{}", "from": "boot_id"}}, "os_release": "Debian 12",
                "kernel": {{"sysname": "Linux", "release": "6.1.0", "version": "#1", "machine": "x86_64"}},
                "governor": {{"performance": [0, 1]}},
                "fabric_libraries": {{"ucx": {{"path": "/x/libucp.so.0", "version": "1.13.1"}}}}}}],
    "build": {{"rustc": "rustc 1.95.0", "profile": "release", "opt_level": "3",
               "binary": {{"path": "/x", "bytes": 1, "sha256": "ab\u00e9cdef0123456789"}}}},
    {p}
    "status": {{"state": "complete"}}}},"##,
                ids[0], ids[1]
            ),
        )
}

/// Two host names with one identity are one host to placement and layout; the names
/// stay, the facts are read, the launcher's control variables are left out.
#[test]
fn schema_4_names_on_one_machine() {
    let r = parse("m.json", &schema4(["aa", "aa"], "")).unwrap();
    let c = &r.conditions;
    assert_eq!(c.layout.as_deref(), Some("2 ranks on 1 host"));
    assert_eq!(r.tables[0].placement.as_deref(), Some("2 ranks on 1 host"));
    assert_eq!(
        c.hosts.as_deref(),
        Some(&["node1".to_string(), "node2".to_string()][..])
    );
    let f = |k: &str| c.facts.get(k).map(String::as_str);
    assert_eq!(f("kernel"), Some("6.1.0"));
    assert_eq!(f("OS"), Some("Debian 12"));
    assert_eq!(f("CPU model"), Some("AMD EPYC"));
    assert_eq!(
        f("CPU topology"),
        Some("1 socket(s), 2 cores, 1 thread(s) per core")
    );
    assert_eq!(f("frequency governor"), Some("not available / performance"));
    assert_eq!(f("fabric libraries"), Some("none / ucx 1.13.1"));
    assert_eq!(f("build"), Some("rustc 1.95.0, release (opt-level 3)"));
    assert_eq!(f("binary"), Some("SHA-256 ab\u{e9}cdef01234…"));
    let cv = c.control_variables.as_ref().unwrap();
    let got: Vec<(&str, &str)> = cv.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        got,
        [
            ("btl", "self,vader,tcp"),
            ("mpi_oversubscribe", "(not read)")
        ]
    );
    // MPI saw two nodes on the one machine (a network between the names, as on a test
    // cluster of namespaces): the placement says so, and differs from shared memory.
    let nodes = schema4(["aa", "aa"], "").replace(
            r#"[{"rank": 0, "host": "node1"}, {"rank": 1, "host": "node2"}]"#,
            r#"[{"rank": 0, "host": "node1", "mpi_node": 0}, {"rank": 1, "host": "node2", "mpi_node": 1}]"#,
        );
    let r = parse("n.json", &nodes).unwrap();
    assert_eq!(
        r.conditions.layout.as_deref(),
        Some("2 ranks on 1 host (2 MPI nodes)")
    );
    assert_eq!(
        r.tables[0].placement.as_deref(),
        Some("2 ranks on 1 host (2 MPI nodes)")
    );
    let one_node = nodes.replace(r#""mpi_node": 1"#, r#""mpi_node": 0"#);
    let r = parse("o.json", &one_node).unwrap();
    assert_eq!(r.conditions.layout.as_deref(), Some("2 ranks on 1 host"));
    // Two identities: two hosts, as before schema 4.
    let r = parse("n.json", &schema4(["aa", "bb"], "")).unwrap();
    assert_eq!(r.conditions.layout.as_deref(), Some("1+1 ranks on 2 hosts"));
    assert_eq!(
        r.tables[0].placement.as_deref(),
        Some("1+1 ranks on 2 hosts")
    );
    // An identity that is absent: the name decides.
    let doc = schema4(["aa", "aa"], "").replacen(
        r#""machine": {"id": "aa", "from": "boot_id"}"#,
        r#""machine": {"absent": "no boot_id"}"#,
        1,
    );
    let r = parse("a.json", &doc).unwrap();
    assert_eq!(r.conditions.layout.as_deref(), Some("1+1 ranks on 2 hosts"));
    // Schema 5 is refused.
    let e = parse(
        "5.json",
        &DOC.replace("\"suite\"", "\"schema_version\": 5, \"suite\""),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("reads schemas 1 to 4"), "{e}");
    // Also when a newer schema changed the document's shape (no `tables`): the schema is
    // what is wrong, not a missing field.
    let e = parse("9.json", r#"{"schema_version": 9, "runs": []}"#)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "9.json, schema_version: 9: this imb-compare reads schemas 1 to 4 (a newer imb-rs \
             wrote it? use the imb-compare of that version)"
    );
}

/// A schema 4 document of 4 ranks, 2 on each of two host names, as the test cluster's
/// namespaces give them: `ids` are the hosts' machine identities, `cpus` each rank's CPU
/// set and `logical` each host's online CPUs.
pub(crate) fn four_ranks(ids: [&str; 2], cpus: [&str; 4], logical: usize) -> String {
    let host = |name: &str, id: &str, ranks: &str| {
        format!(
            r#"{{"host": "{name}", "cpu_model": "AMD EPYC", "ranks": {ranks},
                    "machine": {{"id": "{id}", "from": "boot_id"}},
                    "cpu": {{"model": "AMD EPYC", "logical": {logical}, "sockets": 1,
                             "cores": {logical}, "threads_per_core": 1}}}}"#
        )
    };
    DOC.replace(
            "\"suite\": \"imb-mpi1\",",
            &format!(
                r#""schema_version": 4, "suite": "imb-mpi1",
  "provenance": {{"mpi": {{"library_version": "Open MPI v4.1.4", "thread_level": "MPI_THREAD_SINGLE"}},
    "ranks": [{{"rank": 0, "host": "node1", "cpus": {}, "mpi_node": 0}},
              {{"rank": 1, "host": "node1", "cpus": {}, "mpi_node": 0}},
              {{"rank": 2, "host": "node2", "cpus": {}, "mpi_node": 2}},
              {{"rank": 3, "host": "node2", "cpus": {}, "mpi_node": 2}}],
    "hosts": [{}, {}],
    "status": {{"state": "complete"}}}},"#,
                cpus[0],
                cpus[1],
                cpus[2],
                cpus[3],
                host("node1", ids[0], "[0, 1]"),
                host("node2", ids[1], "[2, 3]")
            ),
        )
}

/// Four ranks on one 2-CPU machine under two host names: the header (which counts per
/// host name) has no note, but the ranks on the machine outnumber its CPUs. On two
/// machines, or with a CPU per rank, nothing is oversubscribed.
#[test]
fn oversubscribed_per_machine_not_per_host_name() {
    let unbound = ["[0, 1]"; 4];
    let r = parse("m.json", &four_ranks(["aa", "aa"], unbound, 2)).unwrap();
    assert_eq!(
        r.oversubscribed.as_deref(),
        Some(
            "4 processes share 2 CPUs on one machine (aa: hosts node1, node2) \
                 (oversubscribed): times measure the scheduler, they are not results"
        )
    );
    // Bound to a core each by each host's launcher, the ranks of both names share the
    // same two cores.
    let bound = ["[0]", "[1]", "[0]", "[1]"];
    let r = parse("b.json", &four_ranks(["aa", "aa"], bound, 2)).unwrap();
    assert!(r.oversubscribed.is_some());
    // Two machines: 2 ranks on 2 CPUs each.
    let r = parse("t.json", &four_ranks(["aa", "bb"], unbound, 2)).unwrap();
    assert_eq!(r.oversubscribed, None);
    // One machine of 4 CPUs.
    let four = ["[0, 1, 2, 3]"; 4];
    let r = parse("f.json", &four_ranks(["aa", "aa"], four, 4)).unwrap();
    assert_eq!(r.oversubscribed, None);
    // The ranks' CPU sets decide, as in the header: 4 ranks held to 2 of 4 CPUs.
    let r = parse("h.json", &four_ranks(["aa", "aa"], unbound, 4)).unwrap();
    assert!(r
        .oversubscribed
        .unwrap()
        .starts_with("4 processes share 2 CPUs on one machine"));
    // Without the ranks' CPU sets, the machine's online CPUs.
    let r = parse("n.json", &four_ranks(["aa", "aa"], ["[]"; 4], 2)).unwrap();
    assert!(r.oversubscribed.is_some());
    // Without a machine identity each name is a host, as the header counts.
    let doc = four_ranks(["aa", "aa"], unbound, 2).replace(
        r#""machine": {"id": "aa", "from": "boot_id"}"#,
        r#""machine": {"absent": "no boot_id"}"#,
    );
    assert_eq!(parse("a.json", &doc).unwrap().oversubscribed, None);
    // The header's own note stays when it has one.
    let doc = four_ranks(["aa", "aa"], unbound, 2).replace(
        r#""thread_env": "MPI_THREAD_SINGLE"}"#,
        r#""thread_env": "MPI_THREAD_SINGLE", "notes": [{"kind": "oversubscribed",
                "what": "processes", "count": 4, "cpus": 2,
                "text": "4 processes share 2 CPUs on one host (oversubscribed): x"}]}"#,
    );
    assert_eq!(
        parse("o.json", &doc).unwrap().oversubscribed.as_deref(),
        Some("4 processes share 2 CPUs on one host (oversubscribed): x")
    );
}

/// Binding is read as a policy from the ranks' CPU sets against their machine's CPUs: the
/// CPU numbers never count, so one policy in two launches reads the same.
#[test]
fn binding_as_a_policy() {
    let read = |ids: [&str; 2], cpus: [&str; 4], logical: usize| {
        parse("b.json", &four_ranks(ids, cpus, logical))
            .unwrap()
            .conditions
            .binding
    };
    let one = |s: &str| Some(s.to_string());
    let core = ["[0]", "[1]", "[0]", "[1]"];
    assert_eq!(read(["aa", "bb"], core, 2), one("each rank on 1 CPU"));
    // The same policy that put rank 0 on CPU 1 this time.
    assert_eq!(
        read(["aa", "bb"], ["[1]", "[0]", "[1]", "[0]"], 2),
        read(["aa", "bb"], core, 2)
    );
    assert_eq!(read(["aa", "bb"], ["[0, 1]"; 4], 2), one("unbound"));
    // Two CPUs of four (a socket of two): bound, though to more than one CPU.
    assert_eq!(
        read(["aa", "bb"], ["[0, 1]", "[2, 3]", "[0, 1]", "[2, 3]"], 4),
        one("each rank on 2 CPUs")
    );
    assert_eq!(
        read(["aa", "bb"], ["[0]", "[0, 1]", "[1]", "[1]"], 2),
        one("mixed: 3 ranks on 1 CPU, 1 rank unbound")
    );
    // Without the machine's CPU count (before schema 4) a set is told by its size.
    assert_eq!(
        read(["aa", "bb"], ["[0, 1]"; 4], 0),
        one("each rank on 2 CPUs")
    );
    // A rank without its set: not recorded, as in text and before schema 3.
    assert_eq!(read(["aa", "bb"], ["[0]", "[1]", "[]", "[1]"], 2), None);
    assert_eq!(parse("d.json", DOC).unwrap().conditions.binding, None);
    // The launcher's policy is a note: explicit `--bind-to core` and Open MPI's default
    // give the same sets.
    let doc = four_ranks(["aa", "bb"], core, 2).replace(
        r#""status": {"state": "complete"}"#,
        r#""environment": {"OMPI_MCA_hwloc_base_binding_policy": "core"},
               "status": {"state": "complete"}"#,
    );
    let c = parse("p.json", &doc).unwrap().conditions;
    assert_eq!(c.binding, one("each rank on 1 CPU"));
    assert_eq!(
        c.facts.get("binding policy").map(String::as_str),
        Some("Open MPI core")
    );
    // Slurm's binding when srun started the ranks, without its masks; under mpirun it is
    // the daemons' step, not the ranks'.
    let slurm = |parent: &str| {
        let doc = four_ranks(["aa", "bb"], core, 2).replace(
            r#""status": {"state": "complete"}"#,
            &format!(
                r#""launcher": {{"kinds": ["slurm"],
                        "variables": {{"SLURM_CPU_BIND": "quiet,mask_cpu:0x1,0x2"}},
                        "parent": {{"pid": 1, "cmdline": ["{parent}", "-n", "4"], "cut": false}}}},
                       "status": {{"state": "complete"}}"#
            ),
        );
        parse("s.json", &doc)
            .unwrap()
            .conditions
            .facts
            .get("binding policy")
            .cloned()
    };
    assert_eq!(slurm("/usr/bin/srun"), one("Slurm mask_cpu"));
    assert_eq!(slurm("mpirun"), None);
}

/// Two tables under one key: with the same columns, a benchmark named twice, its rows
/// joined to the first's; with other columns, refused. A row of a group the table does not
/// have is refused.
#[test]
fn tables_under_one_key_and_groups_beyond_the_table() {
    let twice = DOC
        .replace(r#""benchmark": "Allreduce""#, r#""benchmark": "PingPong""#)
        .replace(r#""multi": true"#, r#""multi": false"#)
        .replace("[[0, 1], [2, 3]]", "[[0, 1]]");
    let e = parse("t.json", &twice).unwrap_err().to_string();
    assert_eq!(
        e,
        "t.json, tables[1]: a second table of PingPong, 2 processes (the first is tables[0]) \
             with other columns: not one launch's document"
    );
    // PingPong's table twice again, its row slower: one row of the three's medians.
    let mut v: Value = serde_json::from_str(DOC).unwrap();
    for t in [0.3, 0.2] {
        let mut again = v["tables"][0].clone();
        again["rows"][0]["t_us"] = Value::from(t);
        v["tables"].as_array_mut().unwrap().push(again);
    }
    let r = parse("t.json", &v.to_string()).unwrap();
    assert_eq!(r.tables.len(), 2);
    assert_eq!(r.tables[0].rows, [[0.0, 1000.0, 0.2, 0.0]]);
    let grouped = DOC
        .replacen(
            r##""columns": ["#bytes""##,
            r##""columns": ["Group", "#bytes""##,
            1,
        )
        .replace(r#""keys": ["bytes""#, r#""keys": ["group", "bytes""#)
        .replace(r#"{"bytes": 0,"#, r#"{"group": 1, "bytes": 0,"#);
    let e = parse("g.json", &grouped).unwrap_err().to_string();
    assert_eq!(
        e,
        "g.json, tables[0].rows[0].group: group 1 in a table of 1 group(s)"
    );
    let ok = grouped.replace(r#""group": 1,"#, r#""group": 0,"#);
    assert_eq!(parse("g.json", &ok).unwrap().tables[0].columns[0], "group");
}

#[test]
fn a_broken_document_names_its_line() {
    let e = parse("b.json", "{\n  \"tables\": [\n  oops\n")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("b.json, line 3: not an imb-rs -json document: "),
        "{e}"
    );
    let e = parse("c.json", r#"{"tables": []}"#)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "c.json: no table with rows in this -json document");
}
