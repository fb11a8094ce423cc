# imb-rs: a Spack package for this repository (see contrib/spack/README.md).
#
# One file serves both repository layouts: Spack 0.22/0.23 read it as
# contrib/spack/packages/imb-rs/package.py, Spack >= 1.0 as
# contrib/spack/spack_repo/imbrs/packages/imb_rs/package.py (a symbolic link to this file).

import json
import os

try:  # Spack >= 1.0: build systems live in the builtin package repository
    from spack_repo.builtin.build_systems import cargo as _cargo

    _SPACK_V1 = True
except ImportError:  # Spack 0.22 and 0.23
    import spack.build_systems.cargo as _cargo

    _SPACK_V1 = False

from spack.package import *

CargoPackage = _cargo.CargoPackage

#: The executables that have an IMB counterpart, and its name (variant imb_names).
IMB_NAMES = {
    "imb-mpi1": "IMB-MPI1",
    "imb-ext": "IMB-EXT",
    "imb-io": "IMB-IO",
    "imb-rma": "IMB-RMA",
    "imb-nbc": "IMB-NBC",
    "imb-p2p": "IMB-P2P",
    "imb-mt": "IMB-MT",
    "imb-mpi4": "IMB-MPI4",
}


class ImbRs(CargoPackage):
    """imb-rs: the Intel MPI Benchmarks 3.0 method (and IMB 2021's suites) in Rust.

    Installs every executable of the Cargo workspace into bin/: imb-mpi1, imb-ext, imb-io,
    imb-rma, imb-nbc, imb-p2p, imb-mt, imb-mpi4 (MPI programs), imb-threads, imb-omp and
    imb-compare (no MPI needed); the settings files and documentation go to share/imb-rs/.
    Their tables are in IMB's format, so tools that read IMB output read them too.
    """

    license("MIT")

    # No public release or repository yet: build from a checkout with `spack develop`
    # (contrib/spack/README.md). The version is the workspace's Cargo.toml version.
    version("0.1.0")

    variant(
        "libomp",
        default=False,
        description="Build imb-omp with clang and LLVM's OpenMP runtime (libomp) "
        "instead of gcc's libgomp",
    )

    variant(
        "imb_names",
        default=False,
        description="Also install IMB's executable names (IMB-MPI1, IMB-EXT, ...) as links to "
        "imb-mpi1, imb-ext, ..., for tools that start IMB by name (Ramble's "
        "intel-mpi-benchmarks application); clashes with intel-mpi-benchmarks in one view",
    )

    depends_on("rust@1.87:", type="build")  # rust-version of the workspace
    depends_on("mpi")
    # rsmpi's mpi-sys reads mpi.h with bindgen, which loads libclang at build time.
    depends_on("llvm+clang", type="build")
    # +libomp: clang compiles imb-omp's kernels and the executable links libomp.so.
    depends_on("llvm+clang", type=("build", "link", "run"), when="+libomp")
    if _SPACK_V1:
        depends_on("c", type="build")  # Spack >= 1.0: compilers are dependencies


class CargoBuilder(_cargo.CargoBuilder):
    # On the builder, not the package: Spack asks the builder for the build environment.
    def setup_build_environment(self, env):
        # Crates come from crates.io during the build (cargo checks them against
        # Cargo.lock's checksums); their cache and the build tree stay in the stage.
        env.set("CARGO_HOME", join_path(self.pkg.stage.path, "cargo-home"))
        env.set("CARGO_TARGET_DIR", join_path(self.pkg.stage.path, "cargo-target"))
        env.set("CARGO_TERM_COLOR", "never")
        env.set("LIBCLANG_PATH", self.spec["llvm"].prefix.lib)
        # mpi-sys asks mpicc (MPICC, else the first on PATH) how to compile and link MPI.
        mpi = self.spec["mpi"]
        env.set("MPICC", getattr(mpi, "mpicc", None) or join_path(mpi.prefix.bin, "mpicc"))
        env.unset("IMB_OMP_RUNTIME")

    def _cargo(self):
        return self.pkg.module.cargo

    def _target_dir(self):
        return join_path(self.pkg.stage.path, "cargo-target")

    def _binaries(self):
        """The names of all binary targets of the workspace's members."""
        out = self._cargo()(
            "metadata", "--no-deps", "--format-version", "1", "--locked", output=str
        )
        names = []
        for package in json.loads(out)["packages"]:
            names += [t["name"] for t in package["targets"] if "bin" in t["kind"]]
        return sorted(names)

    def build(self, pkg, spec, prefix):
        jobs = ["-j", str(pkg.module.make_jobs)]
        cargo = self._cargo()
        with working_dir(self.build_directory):
            if spec.satisfies("+libomp"):
                cargo("build", "--release", "--locked", "--workspace", "--bins",
                      "--exclude", "imb-omp", *jobs)
                # imb-omp's build script takes clang when CC is unset; Spack sets CC to its
                # gcc wrapper, so name clang (from the llvm dependency) explicitly.
                clang = join_path(spec["llvm"].prefix.bin, "clang")
                cargo("build", "--release", "--locked", "-p", "imb-omp", "--features",
                      "libomp", *jobs, extra_env={"CC": clang})
            else:
                cargo("build", "--release", "--locked", "--workspace", "--bins", *jobs)

    def install(self, pkg, spec, prefix):
        release = join_path(self._target_dir(), "release")
        mkdirp(prefix.bin)
        with working_dir(self.build_directory):
            for name in self._binaries():
                install(join_path(release, name), prefix.bin)
            if spec.satisfies("+imb_names"):
                for name, imb in IMB_NAMES.items():
                    if os.path.exists(join_path(prefix.bin, name)):
                        os.symlink(name, join_path(prefix.bin, imb))
            share = join_path(prefix.share, "imb-rs")
            install_tree("settings", join_path(share, "settings"))
            install_tree("doc", join_path(share, "doc"))
            install("README.md", share)
            if os.path.isdir("license"):
                install_tree("license", join_path(share, "license"))
