//! Text from outside (a stored row, a record, a line someone typed) as a
//! message may quote it to a person: short, and never raw control characters
//! sent to a terminal.

/// `text` cut to at most `max_chars` characters (`…` marks a cut), with
/// control characters written out (`\u{1b}`, `\n`).
pub fn quoted(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars * 4));
    for c in text.chars().take(max_chars) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if text.chars().nth(max_chars).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn control_characters_are_written_out() {
        assert_eq!(quoted("a\u{1b}[2Jb\nc", 100), "a\\u{1b}[2Jb\\nc");
        assert_eq!(quoted("Sunday's game", 100), "Sunday's game");
    }

    #[test]
    fn long_text_is_cut_by_characters_not_bytes() {
        assert_eq!(quoted("ééééé", 5), "ééééé");
        assert_eq!(quoted("éééééé", 5), "ééééé…");
        assert_eq!(quoted("", 0), "");
        assert_eq!(quoted("x", 0), "…");
    }
}
