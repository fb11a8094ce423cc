//! The imb-mt executable: the suite is declared in the library, imb-core runs it.

fn main() -> std::process::ExitCode {
    imb_core::driver::main(&imb_mt::SUITE)
}
