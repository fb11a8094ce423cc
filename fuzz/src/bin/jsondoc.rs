//! AFL++ target: `imb_fuzz::jsondoc` on each input (scripts/fuzz).

fn main() {
    afl::fuzz!(|data: &[u8]| imb_fuzz::jsondoc(data));
}
