//! AFL++ target: `imb_fuzz::pipeline` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::pipeline(data));
}
