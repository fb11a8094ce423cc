//! imb-io's options and settings as the engine reads them (doc/ARCHITECTURE.md, "A new
//! option"): its rows `-dir` and `-overwrite` and what they mean (the directory probed, the
//! files already there), its settings file with FILENAME and FILENAME's range, and imb-mpi1's
//! `-window_size` and datatypes refused. Nothing here touches MPI or the rest of this crate, so fuzz/
//! compiles this file into its harness as it is.

use imb_core::cli::raw::Raw;
use imb_core::cli::table::{Opt, Takes};
use imb_core::cli::{Family, FamilyIn, Refused};
use imb_core::error::{Error, Result};
use imb_core::settings::{InStandard, Key, Params, Spec, Type};
use imb_core::values::{Slot, Value, Values};
use std::path::{Path, PathBuf};

/// `-dir`: the directory of the files (as given, or `.`).
pub const DIR: Slot<String> = Slot::new("dir");
/// `-overwrite`: files under our names that this run did not create may be replaced.
pub const OVERWRITE: Slot<bool> = Slot::new("overwrite");
/// FILENAME: the base name of the files (settings_io.toml).
pub const FILENAME: Slot<String> = Slot::new("FILENAME");

/// settings_io.toml (the guide's settings_io.h sample): the guide's keys and FILENAME.
pub static SETTINGS: Spec = Spec {
    file: "settings/settings_io.toml",
    toml: include_str!("../../../settings/settings_io.toml"),
    keys: &[Key {
        name: "FILENAME",
        ty: Type::Text,
        standard: InStandard::Required {
            else_file: ("settings.toml", "imb-mpi1 and imb-ext"),
        },
        optional: true,
        check: plain_name,
    }],
    foreign: &[],
};

/// Longest FILENAME: NAME_MAX (255) less the longest suffix imb-io (`.<token>_g<group>_<rank>`) and
/// the MPI-IO libraries (OMPIO `-<jobid>-<n>.lock`, `.locktest.<rank>`; ROMIO `.<name>.shfp.<n>`)
/// add. Open MPI 4.1's sharedfp aborts the job on a name of 250 characters.
pub const MAX_FILENAME: usize = 200;

fn plain_name(v: &Value) -> std::result::Result<(), String> {
    let Value::Text(f) = v else {
        return Ok(());
    };
    if f.is_empty() || f == "." || f == ".." || f.contains(['/', '\0']) {
        return Err(format!(
            "{f:?}: must be a plain file name (not empty, . or .., no / or NUL)"
        ));
    }
    if f.len() > MAX_FILENAME {
        return Err(format!(
            "{} bytes: at most {MAX_FILENAME}, so the names made from it fit the 255 of a file \
             name (imb-io adds _g<group>_<rank>, the MPI-IO library .locktest.<rank> or \
             -<job>-<n>.lock)",
            f.len()
        ));
    }
    Ok(())
}

type Why = std::result::Result<(), String>;

/// imb-io's options: its rows, the option it refuses, and what its rows mean.
pub static OPTIONS: Family = Family {
    rows: &[
        Opt::row(
            "dir",
            Takes::Value,
            |r: &mut Raw, v| -> Why {
                DIR.set(&mut r.family, v.to_string());
                Ok(())
            },
            (11, 0, "[-dir <directory>]"),
            "- -dir D: create the files (FILENAME.<token>, FILENAME.<token>_<rank>, ...) in D\n  \
(default the current directory), with a token of each benchmark's own, so runs sharing D\n  \
never share a file. They are removed when each benchmark ends, also after an error or a\n  \
signal. A file already there under one of those names stops the run, unless -overwrite\n  \
lets imb-io replace it (and then remove it).\n",
        ),
        Opt::row(
            "overwrite",
            Takes::Flag,
            |r: &mut Raw, _| -> Why {
                OVERWRITE.set(&mut r.family, true);
                Ok(())
            },
            (11, 1, "[-overwrite]"),
            "",
        ),
    ],
    refused: &[
        Refused {
            name: "window_size",
            takes: Takes::Value,
            why: "{exe} has no benchmark with a window of messages (imb-mpi1's Uniband and \
                  Biband have)",
        },
        Refused {
            name: "sync",
            takes: Takes::Value,
            why: "{exe} has no collective timed call by call (imb-mpi1's and imb-nbc's are)",
        },
        Refused {
            name: "root_shift",
            takes: Takes::Value,
            why: "{exe} has no rooted collective (imb-mpi1 and imb-nbc have)",
        },
        Refused {
            name: "off_cache",
            takes: Takes::Value,
            why: "IMB 2021's IMB-IO accepts it and ignores it (its help says so): {exe} \
                  writes and reads files, so no copy of a buffer keeps the data out of a cache",
        },
        // IMB 2021 has its datatype options only in IMB-MPI1.
        Refused {
            name: "data_type",
            takes: Takes::Value,
            why: "IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {exe} writes \
                  and reads MPI_BYTE",
        },
        Refused {
            name: "red_data_type",
            takes: Takes::Value,
            why: "IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {exe} has no \
                  reduction",
        },
        Refused {
            name: "contig_type",
            takes: Takes::Value,
            why: "IMB 2021 has it only in IMB-MPI1, and imb-rs only in imb-mpi1: {exe}'s \
                  accesses are contiguous",
        },
    ],
    resolve,
    ..Family::NONE
};

/// Directory and base name of the files (`-dir`, FILENAME).
pub fn base(params: &Params, family: &Values) -> PathBuf {
    let dir = DIR.get(family).unwrap_or_else(|| ".".into());
    Path::new(&dir).join(FILENAME.get(&params.family).unwrap_or_default())
}

/// The longest file path imb-io opens. Open MPI 4.1's MPI-IO (OMPIO) builds names from the
/// path as given (`<path>-<job id>-<rank>.lock`, `<path>.locktest.<rank>`) in a 256-byte buffer
/// and aborts the whole job ("buffer overflow detected") when they do not fit: measured, a
/// 240-byte path worked and 242 aborted, the margin moving with the job id's digits. The
/// limit leaves room for a 10-digit job id and a 6-digit rank, under every MPI, so no run dies
/// half-way for its path.
pub const MAX_FILE_PATH: usize = 227;

/// What a step's token adds to FILENAME (`prep::with_token`: `.` and 8 hex digits).
pub const TOKEN_LEN: usize = ".0badf00d".len();

/// The length of the longest path imb-io opens in `dir` for `np` processes: the base name, the
/// step's token, and `_g<group>_<rank>` for private files under -multi (`layout::file_name`).
pub fn longest_file_path(dir: &str, base: &str, np: usize) -> usize {
    let digits = np.saturating_sub(1).max(1).ilog10() as usize + 1;
    let sep = usize::from(!dir.ends_with('/'));
    dir.len() + sep + base.len() + TOKEN_LEN + "_g".len() + digits + "_".len() + digits
}

/// `-dir` and `-overwrite`: the directory must be a writable directory whose paths fit. Files
/// already there are no concern here: each step's names carry a token of their own
/// (`prep::with_token`), and a file under them that this run did not create is refused where
/// files are made, unless `-overwrite`.
fn resolve(f: &FamilyIn) -> Result<Values> {
    let base = FILENAME.get(&f.params.family).unwrap_or_default();
    let given = DIR.get(f.raw);
    let overwrite = OVERWRITE.get(f.raw).unwrap_or(false);
    let dir = given.clone().unwrap_or_else(|| ".".into());
    match std::fs::metadata(&dir) {
        Ok(md) if md.is_dir() => {}
        Ok(_) => return Err(Error::file("-dir", &dir, "not a directory")),
        Err(e) => return Err(Error::file("-dir", &dir, format!("cannot use it: {e}"))),
    }
    let writable = nix::unistd::access(
        dir.as_str(),
        nix::unistd::AccessFlags::W_OK | nix::unistd::AccessFlags::X_OK,
    );
    if let Err(e) = writable {
        return Err(if given.is_some() {
            Error::file("-dir", &dir, format!("cannot create files there: {e}"))
        } else {
            Error::arg(
                "-dir",
                format!(
                    "the current directory ({dir}) is not writable ({e}); choose one with -dir"
                ),
            )
        });
    }
    let longest = longest_file_path(&dir, &base, f.np);
    if longest > MAX_FILE_PATH {
        return Err(Error::file(
            "-dir",
            &dir,
            format!(
                "the file paths imb-io makes there reach {longest} bytes, more than \
                 {MAX_FILE_PATH}: Open MPI's MPI-IO aborts the job on paths past about 240 \
                 bytes; choose a shorter -dir (or FILENAME)"
            ),
        ));
    }
    let mut v = Values::default();
    DIR.set(&mut v, dir);
    OVERWRITE.set(&mut v, overwrite);
    Ok(v)
}
