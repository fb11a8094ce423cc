# shellcheck shell=bash
# Helpers shared by scripts/setup, scripts/test and scripts/run (sourced, not run).

imb_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

say() { printf '%s: %s\n' "${0##*/}" "$*"; }
die() { say "$*" >&2; exit 1; }

# The Rust toolchain imb-rs is tested on (README.md, "Rust"): scripts/test makes lints errors
# on this release only (any 1.95.x). The oldest Rust that builds the workspace is another
# thing: `rust-version` in Cargo.toml.
imb_tested_rust=1.95

# cargo, also when ~/.cargo/bin is not on PATH (fresh login, CI runner, sudo).
imb_cargo() {
  local env
  if ! command -v cargo >/dev/null; then
    for env in "${CARGO_HOME:-$HOME/.cargo}/env" "$HOME/.cargo/env"; do
      # shellcheck disable=SC1090
      if [ -f "$env" ]; then . "$env"; break; fi
    done
  fi
  command -v cargo >/dev/null || die "cargo not found: install Rust from https://rustup.rs"
  imb_rust=$(imb_rust_version)
  local oldest
  oldest=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$imb_root/Cargo.toml")
  if [ -n "$oldest" ] && [ "$(printf '%s\n' "$oldest" "${imb_rust%%-*}" | sort -V | head -n 1)" != "$oldest" ]; then
    die "Rust $imb_rust is older than $oldest, the oldest that builds imb-rs: rustup update stable"
  fi
}

# The version of the rustc cargo runs here (rustup's per-directory choice included), e.g.
# 1.95.0 or 1.97.0-nightly.
imb_rust_version() {
  (cd "$imb_root" && "${RUSTC:-rustc}" --version) | awk '{ print $2 }'
}

# Whether that rustc is the tested release (stable 1.95.x, not a beta or nightly of it).
imb_rust_tested() {
  case "$imb_rust" in
    "$imb_tested_rust".*-*) return 1 ;;
    "$imb_tested_rust".*) return 0 ;;
    *) return 1 ;;
  esac
}

# imb_apt_install PKG...: Debian packages that a script beyond scripts/setup needs (Slurm,
# Python's venv, clang), as root or through `sudo -n`; apt-get's output only if it fails.
# Where it cannot install, says what to run (or that this is no Debian) and returns 1.
imb_apt_install() {
  local as_root=() log
  if ! command -v apt-get >/dev/null; then
    say "not Debian/Ubuntu: install the equivalents of these Debian packages: $*" >&2
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      as_root=(sudo -n)
    else
      say "cannot install $* (not root, no passwordless sudo); as root, run:" >&2
      echo "  apt-get update && apt-get install -y --no-install-recommends $*" >&2
      return 1
    fi
  fi
  say "apt-get install $* (a minute or two; its output is shown only if it fails)"
  log=$(mktemp)
  if ! { "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends "$@"; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    say "apt-get install $* failed" >&2
    return 1
  fi
  rm -f "$log"
}

# mpirun on a laptop or a CI box: Open MPI refuses root and more ranks than cores unless told.
# Only Open MPI reads these variables; MPICH's mpirun (hydra) ignores them.
imb_mpi_env() {
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"
}

# mpi-sys's build script does not notice a change of MPI (Open MPI <-> MPICH): remember which
# mpicc the build tree was made with and rebuild mpi-sys when it changes.
imb_mpi_fresh() {
  local dir=${CARGO_TARGET_DIR:-$imb_root/target} now old mpicc=${MPICC:-mpicc}
  now="$(readlink -f "$(command -v "$mpicc")") $("$mpicc" -show 2>/dev/null) ${MPI_PKG_CONFIG:-}"
  old=$(cat "$dir/.imb-mpi" 2>/dev/null || true)
  if [ -n "$old" ] && [ "$old" != "$now" ]; then
    say "MPI changed since the last build: cargo clean -p mpi-sys (dev and release)"
    (cd "$imb_root" && cargo clean -q -p mpi-sys && cargo clean -q -p mpi-sys --release)
  fi
  mkdir -p "$dir" && printf '%s\n' "$now" >"$dir/.imb-mpi"
}
