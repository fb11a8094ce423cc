//! AFL++ target: `imb_fuzz::imbtext` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::imbtext(data));
}
