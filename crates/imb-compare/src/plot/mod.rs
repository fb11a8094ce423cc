//! `--plot DIR`: per table (benchmark, process count, groups, mode) one SVG, and an
//! `index.html` showing them all under the criteria's verdicts and, per table, each new run's
//! summary line against the baseline.
//!
//! An SVG's first panel plots the compared metric's column (`--metric`; its axis names the
//! column read) against the message size; when that metric is a time and the table has
//! Mbytes/sec, a second panel plots the bandwidth. Both axes are logarithmic; 0 bytes, which a
//! logarithmic axis cannot hold, is drawn left of a break in the size axis. Each run is a line
//! through its median over launches (a launch's figure at a size is the median over its
//! groups) in a light band from its lowest to its highest launch. With `--references`, each
//! criterion that reads a panel's column draws its bounds there as a dashed line, the interval
//! each verdict used as an error bar in the new run's colour (the interval of the ratio times
//! the reference: not the launches' spread), and marks the sizes that failed (a red cross) or
//! were inconclusive (an orange ring) at the figure judged: the new run's median, or for a
//! `min` or `max` criterion its best or worst launch. The legend, below the panels, names each
//! run with the day of its first launch, its launches and its hosts, and says what the bands,
//! bars and marks are. Pure Rust (plotters' SVG backend; text is SVG `<text>`, no font files).

mod axes;
mod data;
mod draw;
#[cfg(test)]
mod fixtures;
mod legend;
pub mod trend;

pub use axes::file_name;

use crate::comparison::Comparison;
use crate::error::Error;
use crate::refs::Verdict;
use crate::report::table_title;
use data::collect;
use draw::svg;
use std::path::{Path, PathBuf};

/// In every index.html we write: a directory holding one is ours to write into again.
pub const MARKER: &str = "<meta name=\"generator\" content=\"imb-compare --plot\">";

fn html_escape(s: &str) -> String {
    crate::export::junit::escape(s)
}

const STYLE: &str = "body{font-family:sans-serif;margin:1em 2em}\
    table{border-collapse:collapse;margin-bottom:1em}\
    td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top}\
    tr.fail td.v{color:#d60000;font-weight:bold}\
    tr.inconclusive td.v{color:#c86400;font-weight:bold}\
    tr.pass td.v{color:#2c8a2c}\
    p.summary{margin:0.2em 0;font-family:monospace}\
    img{max-width:100%}";

/// The criteria's verdicts, one row a criterion and new run.
fn verdict_table(cr: &crate::comparison::Criteria) -> String {
    let mut t = format!(
        "<h2>Criteria of {}</h2>\n<p>{} passed, {} failed, {} inconclusive.</p>\n<table>\n\
         <tr><th>criterion</th><th>run</th><th>verdict</th><th>detail</th></tr>\n",
        html_escape(&cr.file),
        cr.count(Verdict::Pass),
        cr.count(Verdict::Fail),
        cr.count(Verdict::Inconclusive)
    );
    for o in &cr.outcomes {
        t.push_str(&format!(
            "<tr class=\"{}\"><td>{}</td><td>{}</td><td class=\"v\">{}</td><td>{}</td></tr>\n",
            o.verdict.key(),
            html_escape(&o.criterion.name),
            html_escape(&o.side),
            o.verdict.word(),
            html_escape(&o.detail())
        ));
    }
    t.push_str("</table>\n");
    t
}

/// The plot directory of one run. What the run made there (the directory and its missing
/// parents, each file that did not exist before) is removed again when it is dropped before
/// [`PlotDir::keep`]: an output that fails half-way (a full disk) leaves neither half a set of
/// plots nor a directory of files without an index.html, which the next `--plot` would refuse
/// as someone else's. Files an earlier run wrote there are ours and may have been replaced;
/// its index.html stays until the new one is complete (written last, renamed into place).
pub struct PlotDir {
    dir: String,
    /// Directories this run created, innermost first.
    made_dirs: Vec<PathBuf>,
    /// Files this run created.
    made_files: Vec<PathBuf>,
    kept: bool,
}

impl PlotDir {
    /// Keep what was written: the run succeeded.
    pub fn keep(mut self) {
        self.kept = true;
    }

    pub fn path(&self) -> &str {
        &self.dir
    }
}

impl Drop for PlotDir {
    fn drop(&mut self) {
        if self.kept {
            return;
        }
        for f in &self.made_files {
            let _ = std::fs::remove_file(f);
        }
        // remove_dir takes only an empty directory: anything someone else put there stays.
        for d in &self.made_dirs {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Make `dir` ready for plots: made when missing; an existing directory must be empty or one
/// we wrote before (its index.html carries [`MARKER`]), so no file of anyone else's is replaced.
pub fn prepare(dir: &str) -> Result<PlotDir, Error> {
    let fail = |msg: String| Error::File {
        file: dir.to_string(),
        msg,
    };
    let d = Path::new(dir);
    let mut out = PlotDir {
        dir: dir.to_string(),
        made_dirs: Vec::new(),
        made_files: Vec::new(),
        kept: false,
    };
    if std::fs::symlink_metadata(d).is_err() {
        out.made_dirs = d
            .ancestors()
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(d).map_err(|e| fail(e.to_string()))?;
        return Ok(out);
    }
    if !std::fs::metadata(d).is_ok_and(|m| m.is_dir()) {
        return Err(fail("exists and is not a directory".to_string()));
    }
    let mut entries = std::fs::read_dir(d).map_err(|e| fail(e.to_string()))?;
    let ours = marked(&d.join("index.html"));
    if entries.next().is_some() && !ours {
        return Err(fail(
            "a directory with files not written by imb-compare --plot: name a new or empty one"
                .to_string(),
        ));
    }
    Ok(out)
}

/// Whether `index` is an index.html we wrote: a regular file whose head carries [`MARKER`].
/// Only the head is read, so an index of thousands of tables is still ours; a FIFO or a device
/// there is not opened for reading (it would block, or never end), and is not ours.
fn marked(index: &Path) -> bool {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    if !std::fs::metadata(index).is_ok_and(|m| m.is_file()) {
        return false;
    }
    // O_NONBLOCK: if the file was swapped for a FIFO since the check, open still returns.
    let Ok(f) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(index)
    else {
        return false;
    };
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = Vec::new();
    f.take(4096).read_to_end(&mut head).is_ok() && String::from_utf8_lossy(&head).contains(MARKER)
}

/// Write the plots of the comparison's runs into `out`, made ready by [`prepare`], index.html
/// last. Returns the files written.
pub fn write(out: &mut PlotDir, c: &Comparison) -> Result<Vec<String>, Error> {
    let dir = out.dir.clone();
    let sides = c.sides();
    let outcomes = c.criteria.as_ref().map_or(&[][..], |cr| &cr.outcomes[..]);
    let fail = |msg: String| Error::File {
        file: dir.clone(),
        msg,
    };
    let d = Path::new(&dir);
    let labels: Vec<&str> = sides.iter().map(|s| s.label.as_str()).collect();
    let labels = html_escape(&labels.join(", "));
    let mut index = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">{MARKER}\n\
         <title>imb-compare: {labels}</title>\n<style>{STYLE}</style></head>\n<body>\n\
         <h1>imb-compare: {labels}</h1>\n"
    );
    let mut how = format!(
        "{} against the message size, and Mbytes/sec beside a time where the table has it. \
         Each run: a line through its median over launches, in a band from its lowest to its \
         highest launch; 0 bytes left of a break in the size axis.",
        c.metric.name()
    );
    if c.criteria.is_some() {
        how.push_str(
            " Dashed: a criterion's bounds; an error bar: the interval a verdict used (the \
             interval of the ratio, times the reference); a red cross marks a size that failed, \
             an orange ring one that was inconclusive, at the figure judged (for min and max, \
             that launch).",
        );
    }
    index.push_str(&format!("<p>{}</p>\n", html_escape(&how)));
    if let Some(cr) = &c.criteria {
        index.push_str(&verdict_table(cr));
    }
    let figures = collect(&sides, c.metric);
    if figures.is_empty() {
        index.push_str(&format!(
            "<p>No table has sizes with a figure in {}: no plot.</p>\n",
            html_escape(c.metric.name())
        ));
    }
    let mut written = Vec::new();
    for (key, fig) in &figures {
        let name = file_name(key);
        let text = svg(key, fig, &sides, outcomes).map_err(|m| fail(format!("{name}: {m}")))?;
        let path = d.join(&name).to_string_lossy().into_owned();
        put(out, &path, text.as_bytes())?;
        let title = html_escape(&table_title(key));
        index.push_str(&format!("<h2>{title}</h2>\n"));
        for cmp in &c.compared {
            let Some(t) = cmp.tables.iter().find(|t| &t.key == key) else {
                continue;
            };
            let against = c
                .base
                .map_or(String::new(), |b| format!(" against {}", b.label));
            index.push_str(&format!(
                "<p class=\"summary\">{}</p>\n",
                html_escape(&format!(
                    "{}{against}: {}",
                    cmp.new.label,
                    crate::export::summary_line(t, c.metric)
                ))
            ));
        }
        index.push_str(&format!(
            "<img src=\"{}\" alt=\"{title}\">\n",
            html_escape(&name)
        ));
        written.push(path);
    }
    index.push_str("</body></html>\n");
    let path = d.join("index.html").to_string_lossy().into_owned();
    put(out, &path, index.as_bytes())?;
    written.push(path);
    Ok(written)
}

/// Write through a temporary file and a rename, as every output file of imb-rs, noting a file
/// that is new for [`PlotDir`]'s clean-up.
fn put(plots: &mut PlotDir, path: &str, bytes: &[u8]) -> Result<(), Error> {
    match std::fs::symlink_metadata(path) {
        Err(_) => plots.made_files.push(PathBuf::from(path)),
        // We write no links: one here was put by someone else, and its target is theirs.
        Ok(m) if m.is_symlink() => {
            return Err(Error::File {
                file: path.to_string(),
                msg: "a symlink, not a plot of imb-compare: remove it or name another directory"
                    .to_string(),
            })
        }
        Ok(_) => {}
    }
    let out = imb_core::safefile::OutFile::check("--plot", path).map_err(|e| Error::File {
        file: path.to_string(),
        msg: e.to_string(),
    })?;
    out.write(bytes).map_err(|e| Error::File {
        file: path.to_string(),
        msg: e.to_string(),
    })
}
