//! The imb-p2p executable: the suite is declared in the library, imb-core runs it.

fn main() -> std::process::ExitCode {
    imb_core::driver::main(&imb_p2p::SUITE)
}
