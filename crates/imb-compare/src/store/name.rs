//! The names a run is filed and chosen by (a system, a label, a tag), and arguments as a
//! message quotes them: what the store's selectors and the command line both check.

/// `s` with its control, invisible and text-direction characters escaped, the rest as it is:
/// an argument quoted in a message then reads as typed, and cannot turn the line around or
/// hide a character. The engine's escaping ([`imb_core::error::plain`]), so an argument is
/// shown alike in every message (fuzz/regressions/selector).
pub fn shown(s: &str) -> String {
    imb_core::error::plain(s).into_owned()
}

/// A system, label or tag, from an option or `$IMB_RS_SYSTEM` alike: a selector's terms are
/// split at commas and `=`, a name is shown on one line as it is read, and one that cannot be
/// seen (blank, or padded with spaces that a selector would have to repeat) names nothing the
/// user can type back.
pub fn name(s: &str) -> Result<String, String> {
    if s.is_empty() {
        Err("an empty name".to_string())
    } else if s.trim().is_empty() {
        Err(format!("{s:?}: a blank name (only spaces)"))
    } else if s.trim() != s {
        Err(format!("{s:?}: a name does not start or end with a space"))
    } else if s
        .chars()
        .any(|c| c.is_control() || imb_core::error::unseen(c))
    {
        Err(format!(
            "\"{}\": a name has no control, invisible or text-direction characters",
            shown(s)
        ))
    } else if s.contains([',', '=']) || s.starts_with('@') {
        Err(format!(
            "{s:?}: a name has no commas or '=', and does not start with @"
        ))
    } else {
        Ok(s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_cannot_be_seen_or_typed_back_are_refused() {
        for ok in ["vm", "cluster-a", "mpi 4.1.4", "été", "ノード"] {
            assert_eq!(name(ok).as_deref(), Ok(ok));
        }
        for (bad, says) in [
            ("", "an empty name"),
            ("  ", "a blank name"),
            ("\t", "a blank name"),
            (" vm", "does not start or end with a space"),
            ("vm\u{202e}x", "text-direction"),
            ("\u{2067}vm", "text-direction"),
            ("v\u{200b}m", "invisible"),
            ("v\u{7f}m", "control"),
            ("a=b", "no commas or '='"),
            ("@x", "does not start with @"),
        ] {
            let e = name(bad).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
            assert!(
                !e.chars()
                    .any(|c| c.is_control() || imb_core::error::unseen(c)),
                "{e:?}"
            );
        }
    }
}
