//! imb-compare's readers: IMB/OSU text, `-json` documents, references files, and what the
//! program does with a launch once read.

use super::common::{one_line, text};

/// imb-compare's IMB/OSU text reader.
pub fn imbtext(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::imbtext::parse("launch.txt", t) {
        one_line("imbtext", &e.to_string(), "launch.txt");
    }
}

/// imb-compare's `-json` reader.
pub fn jsondoc(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::jsondoc::parse("launch.json", t) {
        one_line("jsondoc", &e.to_string(), "launch.json");
    }
}

/// imb-compare's references file (`--references FILE.toml`).
pub fn refs(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Err(e) = imb_compare::refs::parse("refs.toml", t) {
        one_line("refs", &e.to_string(), "refs.toml");
    }
}

/// What `imb-compare` does with a launch after reading it: the file as text or `-json` (as
/// `sides::load` tells them apart), then set against itself as BASE and NEW with the
/// acceptance criteria of settings/acceptance.toml and a catch-all one, in every output format,
/// and as `agreement` of two sides. Plots are left out (they need a directory).
pub fn pipeline(data: &[u8]) {
    use imb_compare::{agree::Metric, comparison, export, refs, report, sides::Side};
    let Some(t) = text(data) else { return };
    let parsed = if t.trim_start().starts_with('{') {
        imb_compare::jsondoc::parse("launch", t)
    } else {
        imb_compare::imbtext::parse("launch", t)
    };
    let run = match parsed {
        Err(e) => return one_line("pipeline", &e.to_string(), "launch"),
        Ok(r) => r,
    };
    for table in &run.tables {
        for row in &table.rows {
            assert_eq!(
                row.len(),
                table.columns.len(),
                "pipeline: a row of another width"
            );
            assert!(
                row.iter().all(|v| v.is_finite()),
                "pipeline: a figure not finite"
            );
        }
    }
    static CRITERIA: std::sync::OnceLock<Vec<refs::Criterion>> = std::sync::OnceLock::new();
    let criteria = CRITERIA.get_or_init(|| {
        let mut text = include_str!("../../settings/acceptance.toml").to_string();
        text.push_str(
            "\n[[criterion]]\nbenchmark = \"*\"\nmetric = \"t\"\nstatistic = \"p90\"\n\
             reference = 1.5\nupper = 0.5\n",
        );
        refs::parse("acceptance.toml", &text).expect("the criteria parse")
    });
    let side = |label: &str| Side {
        label: label.to_string(),
        runs: vec![run.clone()],
        files: vec![format!("{label}/launch")],
        repeats: Vec::new(),
        empty: Vec::new(),
    };
    let (base, new) = (side("base"), [side("new")]);
    // Whatever the input records, its figures reach the verdict code.
    let acceptance = refs::Acceptance {
        unrecorded: imb_compare::conditions::Kind::ALL.into_iter().collect(),
        ..refs::Acceptance::default()
    };
    for metric in [Metric::T, Metric::Mbytes, Metric::TOvrl] {
        let c = comparison::build(
            Some(&base),
            &new,
            metric,
            0.95,
            Some(("acceptance.toml", criteria)),
            &acceptance,
        );
        for format in [
            export::Format::Text,
            export::Format::Markdown,
            export::Format::Csv,
        ] {
            let _ = export::render(&c, format);
        }
        let _ = export::json::render(&c);
        if let Some(cr) = &c.criteria {
            let _ = export::junit::document(&cr.file, &cr.outcomes);
        }
        let _ = c.exit_status();
        let _ = report::report(&[base.clone(), new[0].clone()], metric, false);
    }
}

/// imb-compare's command line (`cli::parse`, one argument a line, the program's name put
/// first): a run or `--help`, else a usage error of one line. Nothing is run: the paths it
/// names are never opened, let alone written.
pub fn compare_cli(data: &[u8]) {
    let Some(mut argv) = super::common::args(data) else {
        return;
    };
    argv.insert(0, "imb-compare".to_string());
    let argv = argv.into_iter().map(std::ffi::OsString::from).collect();
    if let Err(imb_compare::cli::Usage::Error(msg)) = imb_compare::cli::parse(argv) {
        one_line("compare_cli", &msg, "");
    }
}
