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
mod style;
pub mod trend;

pub use axes::file_name;

use crate::error::Error;
use crate::judge::comparison::Comparison;
use crate::judge::criteria::Verdict;
use crate::read::key::table_title;
use data::collect;
use draw::svg;
use std::path::{Path, PathBuf};

/// In every index.html we write: a directory holding one is ours to write into again.
pub const MARKER: &str = "<meta name=\"generator\" content=\"imb-compare --plot\">";

fn html_escape(s: &str) -> String {
    crate::render::junit::escape(s)
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
fn verdict_table(cr: &crate::judge::comparison::Criteria) -> String {
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

/// The plot directory of one run. A directory that is not there yet is made under a temporary
/// name beside it (`.NAME.plot-HOST-PID`) and renamed to its name by [`PlotDir::keep`] once
/// every file is in it: a run stopped half-way never leaves a directory of plots without an
/// index.html, which the next `--plot` would refuse as someone else's. In a directory of ours
/// from before, each file is replaced whole and index.html last, and the files this run added
/// are removed again if it fails. While it writes, SIGINT, SIGTERM and SIGHUP wait
/// ([`imb_core::safefile::Deferring`]): the next file's write then fails, the clean-up runs,
/// and the signal ends the process. A temporary directory of a process killed outright
/// (SIGKILL) is removed by the next `--plot` beside it ([`sweep`]).
pub struct PlotDir {
    /// The directory named, for messages and the paths returned.
    dir: String,
    /// Where the files go: the temporary directory, or `dir` itself.
    work: PathBuf,
    /// Whether `work` is a temporary directory to rename to `dir`.
    temporary: bool,
    /// Directories this run created, innermost first (`work` among them when temporary).
    made_dirs: Vec<PathBuf>,
    /// Files this run created.
    made_files: Vec<PathBuf>,
    kept: bool,
    /// Dropped after the clean-up (fields drop after `drop`): a deferred signal ends the
    /// process only once nothing half-made is left.
    _signals: imb_core::safefile::Deferring,
}

impl PlotDir {
    /// Keep what was written: the run succeeded. A temporary directory takes its name now.
    pub fn keep(mut self) -> Result<(), Error> {
        if self.temporary {
            std::fs::rename(&self.work, &self.dir).map_err(|e| Error::File {
                file: self.dir.clone(),
                msg: format!("cannot put the plots in place: {e}"),
            })?;
        }
        self.kept = true;
        Ok(())
    }

    pub fn path(&self) -> &str {
        &self.dir
    }

    /// Where file `name` is written, and the path it will have once kept.
    fn place(&self, name: &str) -> (PathBuf, String) {
        (
            self.work.join(name),
            Path::new(&self.dir)
                .join(name)
                .to_string_lossy()
                .into_owned(),
        )
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

/// The temporary name of plot directory `name` without its process id: `.NAME.plot-HOST-`.
fn temporary_prefix(name: &str) -> String {
    format!(".{name}.plot-{}-", crate::store::schema::host())
}

/// Removes beside plot directory `d` the temporary directories of earlier runs killed while
/// writing (SIGKILL): only names of our pattern, of this host and user, whose process is gone,
/// and in them only what `--plot` writes (SVGs, index.html, the temporary files of a write).
/// A directory holding anything else stays.
fn sweep(d: &Path) {
    use std::os::unix::fs::MetadataExt;
    let (Some(name), Some(parent)) = (d.file_name().and_then(|n| n.to_str()), d.parent()) else {
        return;
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let Some(me) = crate::store::schema::user() else {
        return;
    };
    let prefix = temporary_prefix(name);
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let Some(pid) = e
            .file_name()
            .to_str()
            .and_then(|f| f.strip_prefix(prefix.as_str()))
            .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let stale = e.path().symlink_metadata().is_ok_and(|m| {
            m.file_type().is_dir() && m.uid() == me && crate::store::schema::gone(pid)
        });
        if !stale {
            continue;
        }
        for f in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
            let n = f.file_name();
            let n = n.to_string_lossy();
            let ours = n.ends_with(".svg") || n == "index.html" || n.ends_with(".tmp");
            if ours && f.file_type().is_ok_and(|t| t.is_file()) {
                let _ = std::fs::remove_file(f.path());
            }
        }
        let _ = std::fs::remove_dir(e.path());
    }
}

/// Make `dir` ready for plots: made when missing (under a temporary name until kept); an
/// existing directory must be empty or one we wrote before (its index.html carries
/// [`MARKER`]), so no file of anyone else's is replaced.
pub fn prepare(dir: &str) -> Result<PlotDir, Error> {
    let fail = |msg: String| Error::File {
        file: dir.to_string(),
        msg,
    };
    let d = Path::new(dir);
    let signals = imb_core::safefile::Deferring::enter().map_err(|e| fail(e.to_string()))?;
    let mut out = PlotDir {
        dir: dir.to_string(),
        work: d.to_path_buf(),
        temporary: false,
        made_dirs: Vec::new(),
        made_files: Vec::new(),
        kept: false,
        _signals: signals,
    };
    sweep(d);
    if std::fs::symlink_metadata(d).is_err() {
        let name = d
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| fail("names no directory: name a new one".to_string()))?;
        let parent = d.parent().filter(|p| !p.as_os_str().is_empty());
        out.made_dirs = parent
            .into_iter()
            .flat_map(Path::ancestors)
            .filter(|a| !a.as_os_str().is_empty())
            .take_while(|a| std::fs::symlink_metadata(a).is_err())
            .map(Path::to_path_buf)
            .collect();
        if let Some(p) = parent {
            std::fs::create_dir_all(p).map_err(|e| fail(e.to_string()))?;
        }
        out.work = parent.unwrap_or(Path::new(".")).join(format!(
            "{}{}",
            temporary_prefix(name),
            std::process::id()
        ));
        // Ours alone: a leftover of this process id (a reused one) is not written into.
        std::fs::create_dir(&out.work).map_err(|e| fail(e.to_string()))?;
        out.made_dirs.insert(0, out.work.clone());
        out.temporary = true;
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
        let path = put(out, &name, text.as_bytes())?;
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
                    crate::render::words::summary_line(t, c.metric)
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
    written.push(put(out, "index.html", index.as_bytes())?);
    Ok(written)
}

/// Write file `name` of the plots through a temporary file and a rename, as every output file
/// of imb-rs, noting a file that is new for [`PlotDir`]'s clean-up; the path it has once kept.
fn put(plots: &mut PlotDir, name: &str, bytes: &[u8]) -> Result<String, Error> {
    let (at, shown) = plots.place(name);
    let fail = |msg: String| Error::File {
        file: shown.clone(),
        msg,
    };
    match std::fs::symlink_metadata(&at) {
        Err(_) => plots.made_files.push(at.clone()),
        // We write no links: one here was put by someone else, and its target is theirs.
        Ok(m) if m.is_symlink() => {
            return Err(fail(
                "a symlink, not a plot of imb-compare: remove it or name another directory"
                    .to_string(),
            ))
        }
        Ok(_) => {}
    }
    let path = at.to_string_lossy();
    let out =
        imb_core::safefile::OutFile::check("--plot", &path).map_err(|e| fail(e.to_string()))?;
    out.write(bytes).map_err(|e| fail(e.to_string()))?;
    Ok(shown)
}
