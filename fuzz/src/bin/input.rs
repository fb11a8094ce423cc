//! AFL++ target: `imb_fuzz::input` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::input(data));
}
